import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler, type UploadHandler } from '../src/index';
import { putWithToken } from './put-with-token';

// Temporary-token strategy with a size limit: credentials cannot bind a size, so the handler checks the
// stored object (HEAD) when the browser completes, and deletes it when too large. Real storage (s3rver,
// with its local STS stand-in for the credentials).

const LIMIT = 4096;
let storage: LocalS3;
let handler: UploadHandler;
let admin: S3Client;

beforeAll(async () => {
  storage = await startLocalS3();
  handler = createUploadHandler({ ...storage.handlerSettings, stsClient: storage.stsClient, maxFileSize: LIMIT });
  admin = storage.createClient();
});
afterAll(async () => {
  admin?.destroy();
  await storage?.close();
});

const call = (body: object) =>
  handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));

async function uploadWithToken(declared: number, actual: number) {
  const response = await call({ filename: 'f.bin', filetype: 'application/octet-stream', filesize: declared, _upload: { strategy: 'temporary-token' } });
  expect(response.status).toBe(200);
  const prepared = await response.json();
  expect(typeof prepared.receipt).toBe('string');
  await putWithToken(prepared, actual);
  return prepared as { key: string; receipt: string };
}

const complete = (key: string, receipt: string) =>
  call({ filename: 'f.bin', filetype: 'application/octet-stream', _upload: { strategy: 'temporary-token', complete: { key, receipt } } });

describe('temporary-token strategy with maxFileSize', () => {
  it('completes an object within the limit with { key, size }', async () => {
    const { key, receipt } = await uploadWithToken(1000, 1000);
    const response = await complete(key, receipt);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ key, size: 1000 });
  });

  it('deletes an object larger than the limit (declared small, sent large) and answers 413', async () => {
    const { key, receipt } = await uploadWithToken(1000, LIMIT + 1);
    const response = await complete(key, receipt);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'FILE_TOO_LARGE' });
    await expect(admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('refuses to complete another key with a receipt (no deleting other objects)', async () => {
    const first = await uploadWithToken(10, 10);
    const second = await uploadWithToken(10, LIMIT + 10);
    const response = await complete(second.key, first.receipt);
    expect(response.status).toBe(400);
    expect((await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: second.key }))).ContentLength).toBe(LIMIT + 10);
  });

  it('refuses the token itself for a declared size over the limit (413)', async () => {
    const response = await call({ filename: 'f.bin', filetype: 'application/octet-stream', filesize: LIMIT + 1, _upload: { strategy: 'temporary-token' } });
    expect(response.status).toBe(413);
  });
});
