import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler, type UploadHandler } from '../src/index';

// Issue 42 hole 6, with the handler's own tokens: on @upbeam/local-s3 an upload token (its STS stand-in, the
// session policy the handler sends) wrote any key, so an app tested there never saw what S3 refuses. The
// local server now enforces the token's session policy, as S3 and radosgw do (temporary-token-radosgw.test.ts).

const MiB = 1024 * 1024;
let storage: LocalS3;
let handler: UploadHandler;
let admin: S3Client;

beforeAll(async () => {
  storage = await startLocalS3();
  handler = createUploadHandler({ ...storage.handlerSettings, stsClient: storage.stsClient });
  admin = storage.createClient();
  await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: 'someone-else/avatar.png', Body: 'theirs' }));
});
afterAll(async () => {
  admin?.destroy();
  await storage?.close();
});

async function prepareToken() {
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'cat.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'temporary-token' } }),
    }),
  );
  expect(response.status).toBe(200);
  const prepared = await response.json();
  const { Credentials: c } = prepared.token;
  const client = new S3Client({
    region: prepared.region,
    endpoint: prepared.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { key: prepared.key as string, bucket: prepared.bucket as string, client };
}

const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'ok',
    (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => `${error.$metadata?.httpStatusCode} ${error.name}`,
  );

describe('temporary-token strategy on local-s3: the token writes its one key, nothing else', () => {
  it('PutObject to its key succeeds; PutObject to another key, GetObject, ListObjectsV2 and lib-storage Upload elsewhere get 403 AccessDenied', async () => {
    const { key, bucket, client } = await prepareToken();
    try {
      expect(await outcome(client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(10, 1), ContentType: 'image/png' })))).toBe('ok');
      expect(await outcome(client.send(new PutObjectCommand({ Bucket: bucket, Key: 'someone-else/avatar.png', Body: 'mine now' })))).toBe('403 AccessDenied');
      expect(await outcome(client.send(new GetObjectCommand({ Bucket: bucket, Key: 'someone-else/avatar.png' })))).toBe('403 AccessDenied');
      expect(await outcome(client.send(new ListObjectsV2Command({ Bucket: bucket })))).toBe('403 AccessDenied');
      const elsewhere = new Upload({ client, params: { Bucket: bucket, Key: `${key}.other`, Body: Buffer.alloc(6 * MiB, 2) }, partSize: 5 * MiB });
      expect(await outcome(elsewhere.done())).toBe('403 AccessDenied');
      await expect(admin.send(new HeadObjectCommand({ Bucket: bucket, Key: `${key}.other` }))).rejects.toMatchObject({ name: 'NotFound' });
      const theirs = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: 'someone-else/avatar.png' }));
      expect(await theirs.Body!.transformToString()).toBe('theirs');
    } finally {
      client.destroy();
    }
  });
});
