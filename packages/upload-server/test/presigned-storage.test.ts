import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler, type UploadHandlerConfig } from '../src/index';

// The presigned strategy against a real S3-compatible server (@20minutes/s3rver on 127.0.0.1), which
// verifies SigV4, the signed headers and the expiry as S3 does.

let storage: LocalS3;
let reader: S3Client;

beforeAll(async () => {
  storage = await startLocalS3();
  reader = new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
  });
});
afterAll(async () => {
  reader?.destroy();
  await storage?.close();
});

async function prepare(filename: string, filetype: string, config: UploadHandlerConfig = {}) {
  const handler = createUploadHandler({
    accessKeyId: storage.accessKeyId,
    secretAccessKey: storage.secretAccessKey,
    bucket: storage.bucket,
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: true,
    ...config,
  });
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename, filetype, _upload: { strategy: 'presigned' } }),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { key: string; url: string; bucket: string };
}

function put(url: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  return fetch(url, { method: 'PUT', body, headers });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('presigned PUT URL against a real S3-compatible server', () => {
  it('accepts the PUT; stored bytes, Content-Type and Cache-Control are what was sent', async () => {
    const file = randomBytes(3 * 1024 * 1024 + 17);
    const { key, url, bucket } = await prepare('report final.pdf', 'application/pdf');
    const response = await put(url, file, { 'content-type': 'application/pdf', 'cache-control': 'max-age=630720000' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBeTruthy();

    const object = await reader.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const stored = await object.Body!.transformToByteArray();
    expect(sha256(stored)).toBe(sha256(file));
    expect(object.ContentType).toBe('application/pdf');
    expect(object.CacheControl).toBe('max-age=630720000');
  });

  it('refuses (403) a PUT with another Content-Type than the one signed', async () => {
    const { url } = await prepare('page.png', 'image/png');
    const response = await put(url, new TextEncoder().encode('<script>alert(1)</script>'), {
      'content-type': 'text/html',
      'cache-control': 'max-age=630720000',
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('SignatureDoesNotMatch');
  });

  it('refuses (403) a PUT with another Cache-Control than the one signed', async () => {
    const { url } = await prepare('a.txt', 'text/plain');
    const response = await put(url, new Uint8Array([1]), { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    expect(response.status).toBe(403);
  });

  it('refuses (403) a PUT to a URL that has expired', async () => {
    const { url } = await prepare('late.txt', 'text/plain', { expiresIn: 1 });
    await sleep(2100);
    const response = await put(url, new Uint8Array([1, 2, 3]), {
      'content-type': 'text/plain',
      'cache-control': 'max-age=630720000',
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/expired/i);
  });

  it('refuses (403) a URL signed with a wrong secret', async () => {
    const { url } = await prepare('a.txt', 'text/plain', { secretAccessKey: 'not-the-secret' });
    const response = await put(url, new Uint8Array([1]), { 'content-type': 'text/plain', 'cache-control': 'max-age=630720000' });
    expect(response.status).toBe(403);
  });
});
