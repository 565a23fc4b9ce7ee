import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUploadHandler } from '../src/index';
import { composite, multipartUpload, post, reference } from './checksum-helpers';

// Issue 46, the presigned strategy end to end on local-s3 (which verifies x-amz-checksum-* and Content-MD5 as
// S3 does, multipart checksums included): single PUTs and multipart uploads of each algorithm through the
// handler, the answers' checksums compared with the AWS SDK's reference implementations.

const MiB = 1024 * 1024;
let storage: LocalS3;
let admin: S3Client;
beforeAll(async () => {
  storage = await startLocalS3();
  admin = storage.createClient();
});
afterAll(async () => {
  admin?.destroy();
  await storage?.close();
});

const parts = [randomBytes(5 * MiB), randomBytes(1000)];

describe('presigned multipart uploads with checksums (local-s3)', () => {
  it.each(['crc32c', 'sha256'] as const)('%s composite: each part signed with its checksum; the answer and the hook get the composite value', async (algorithm) => {
    const hook = vi.fn(() => ({}));
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: algorithm, onUploadComplete: hook });
    const { created, statuses, completed } = await multipartUpload(handler, parts, { algorithm });
    expect(created.body).toMatchObject({ checksum: algorithm, parts: [] });
    expect(statuses).toEqual([200, 200]);
    const expected = { algorithm, type: 'composite', value: await composite(algorithm, parts) };
    expect(completed).toMatchObject({ status: 200, body: { checksum: expected } });
    expect(hook).toHaveBeenCalledWith(expect.objectContaining({ checksum: expected }));
  });

  it('crc64nvme full-object: the whole object\'s CRC sent at complete; a wrong one is refused (409) and nothing is stored', async () => {
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: 'crc64nvme', onError: () => {} });
    const whole = await reference('crc64nvme', Buffer.concat(parts));
    const { completed } = await multipartUpload(handler, parts, { algorithm: 'crc64nvme', whole });
    expect(completed).toMatchObject({ status: 200, body: { checksum: { algorithm: 'crc64nvme', type: 'full-object', value: whole } } });
    const wrong = await multipartUpload(handler, parts, { algorithm: 'crc64nvme', whole: await reference('crc64nvme', randomBytes(10)) });
    expect(wrong.completed).toMatchObject({ status: 409, body: { code: 'CHECKSUM_MISMATCH' } });
    await expect(admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: wrong.created.body.key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it('a changed byte in a part is refused by storage under its signed checksum (each algorithm)', async () => {
    for (const algorithm of ['crc32c', 'crc64nvme', 'sha256', 'md5'] as const) {
      const handler = createUploadHandler({ ...storage.handlerSettings, checksum: algorithm });
      const changed = Buffer.from(parts[1]!);
      changed[0] = changed[0]! ^ 1;
      const { statuses } = await multipartUpload(handler, parts, { algorithm, sent: [parts[0]!, changed] });
      expect({ algorithm, statuses }).toEqual({ algorithm, statuses: [200, 400] });
    }
  });

  it("md5: parts carry Content-MD5; the answer names a composite MD5 only where storage's ETag is one (S3, radosgw; not s3rver's)", async () => {
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: 'md5' });
    const { created, completed } = await multipartUpload(handler, parts, { algorithm: 'md5' });
    expect(created.body.checksum).toBe('md5');
    expect(completed?.status).toBe(200);
    const etag = String(completed?.body.etag).replaceAll('"', '');
    if (/-2$/.test(etag)) expect(completed?.body.checksum).toEqual({ algorithm: 'md5', type: 'composite', value: etag });
    else expect(completed?.body).not.toHaveProperty('checksum');
  });
});

describe('no overwrites (conditionalWrites, local-s3)', () => {
  it("the server's CompleteMultipartUpload sends If-None-Match: a second upload to the key is refused 409 OBJECT_EXISTS; the first stays", async () => {
    const config = { ...storage.handlerSettings, checksum: 'crc32c' as const, keyPrefix: 'fixed/', key: () => 'fixed/one.bin', onError: () => {} };
    const first = await multipartUpload(createUploadHandler({ ...config, conditionalWrites: true }), parts, { algorithm: 'crc32c' });
    expect(first.completed?.status).toBe(200);
    const second = await multipartUpload(createUploadHandler({ ...config, conditionalWrites: true }), [randomBytes(5 * MiB), randomBytes(10)], { algorithm: 'crc32c' });
    expect(second.completed).toEqual({
      status: 409,
      body: { code: 'OBJECT_EXISTS', error: 'An object already exists under this key (storage refuses to overwrite it).' },
    });
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: 'fixed/one.bin' }));
    expect(head.ContentLength).toBe(5 * MiB + 1000);
    // Without conditional writes, the same complete replaces the object (as before issue 46).
    const replaced = await multipartUpload(createUploadHandler({ ...config, conditionalWrites: false }), [randomBytes(5 * MiB), randomBytes(10)], { algorithm: 'crc32c' });
    expect(replaced.completed?.status).toBe(200);
  });
});

describe('presigned single PUTs with checksums (local-s3)', () => {
  it.each(['crc32c', 'crc64nvme', 'sha256', 'md5'] as const)('%s: the signed value is stored, the hook gets it, a client asking for another algorithm wins', async (algorithm) => {
    const hook = vi.fn(() => ({}));
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: 'crc32c', onUploadComplete: hook });
    const bytes = randomBytes(1000);
    const value = await reference(algorithm, bytes);
    const body = { filename: 'a.bin', filetype: 'application/octet-stream', filesize: bytes.length };
    const prepared = await post(handler, { ...body, _upload: { strategy: 'presigned', checksum: { algorithm, value } } });
    expect(prepared.body.checksum).toBe(algorithm);
    const put = await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: bytes });
    expect(put.status).toBe(200);
    const done = await post(handler, { ...body, _upload: { strategy: 'presigned', complete: { key: prepared.body.key, receipt: prepared.body.receipt } } });
    expect(done.status).toBe(200);
    const hex = Buffer.from(value, 'base64').toString('hex');
    const expected = { algorithm, type: 'full-object', value: algorithm === 'md5' ? hex : value };
    expect(done.body.checksum).toEqual(expected);
    expect(hook).toHaveBeenCalledWith(expect.objectContaining({ checksum: expected }));
  });
});
