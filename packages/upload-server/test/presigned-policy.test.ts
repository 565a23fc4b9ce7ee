import { createHash, randomBytes } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler, type UploadHandlerConfig } from '../src/index';

// What the presigned URL binds, enforced by real S3-compatible servers (s3rver and Ceph radosgw): the
// declared size (signed as Content-Length), the disposition, the metadata.

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;
const radosgw = inject('radosgw');
const storages: { name: string; start(): Promise<Storage> }[] = [
  { name: 's3rver', start: () => startLocalS3() },
  ...(radosgw ? [{ name: 'radosgw', start: () => createTestBucket(radosgw, 'policy') }] : []),
];

describe.each(storages)('presigned URL policy enforced by $name', ({ start }) => {
  let storage: Storage;
  let reader: S3Client;

  beforeAll(async () => {
    storage = await start();
    reader = storage.createClient();
  });
  afterAll(async () => {
    reader?.destroy();
    await storage?.close();
  });

  async function prepare(body: Record<string, unknown>, config: UploadHandlerConfig = {}) {
    const handler = createUploadHandler({ ...storage.handlerSettings, ...config });
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ _upload: { strategy: 'presigned' }, ...body }),
      }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as { key: string; url: string; headers: Record<string, string> };
  }

  const put = (url: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string>) =>
    fetch(url, { method: 'PUT', body, headers });
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

    it('with maxFileSize, a PUT of the declared size is stored; any other size is refused (403)', async () => {
      const file = randomBytes(4096);
      const config = { maxFileSize: 8192 };
      const exact = await prepare({ filename: 'a.bin', filetype: 'application/octet-stream', filesize: 4096 }, config);
      expect((await put(exact.url, file, exact.headers)).status).toBe(200);
      const stored = await reader.send(new GetObjectCommand({ Bucket: storage.bucket, Key: exact.key }));
      expect(sha256(await stored.Body!.transformToByteArray())).toBe(sha256(file));

      const small = await prepare({ filename: 'b.bin', filetype: 'application/octet-stream', filesize: 10 }, config);
      const response = await put(small.url, file, small.headers);
      expect(response.status).toBe(403);
    });

    it('stores the disposition and metadata set by onBeforeUpload; a PUT without the disposition is refused', async () => {
      const prepared = await prepare(
        { filename: 'r.pdf', filetype: 'application/pdf' },
        { onBeforeUpload: () => ({ metadata: { 'user-id': '42' }, contentDisposition: 'attachment; filename="r.pdf"' }) },
      );
      const bytes = new TextEncoder().encode('%PDF-1.4');
      const { 'Content-Disposition': _, ...withoutDisposition } = prepared.headers;
      expect((await put(prepared.url, bytes, withoutDisposition)).status).toBe(403);
      expect((await put(prepared.url, bytes, prepared.headers)).status).toBe(200);
      const object = await reader.send(new GetObjectCommand({ Bucket: storage.bucket, Key: prepared.key }));
      expect(object.ContentDisposition).toBe('attachment; filename="r.pdf"');
      expect(object.Metadata).toEqual({ 'user-id': '42' });
    });

    it('stores an uploaded HTML file as an attachment by default', async () => {
      const prepared = await prepare({ filename: 'x.html', filetype: 'text/html' });
      expect((await put(prepared.url, new TextEncoder().encode('<script>alert(1)</script>'), prepared.headers)).status).toBe(200);
      const object = await reader.send(new GetObjectCommand({ Bucket: storage.bucket, Key: prepared.key }));
      expect(object.ContentDisposition).toBe('attachment');
      expect(object.ContentType).toBe('text/html');
    });
});
