import { createHash, randomBytes } from 'node:crypto';
import { PutObjectCommand, S3Client, HeadObjectCommand } from '@aws-sdk/client-s3';
import type { MultipartUploadResponse, PresignedUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRouteServices } from '../route-services';
import { createSharedServices } from '../shared-services';
import { createRouteLimits } from '../upload-limits';
import { complete } from './complete';
import { runMultipart } from './multipart';
import { preparePresigned } from './prepare-presigned';
import { decideObject, type RouteContext } from './route-context';

// The checksum rules of the preparations (issue 46), each operation called as a function on a real local-s3,
// which verifies x-amz-checksum-* and Content-MD5 and reports stored checksums in checksum mode.

const request = { request: new Request('http://127.0.0.1/api/s3-upload', { method: 'POST' }) };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

let storage: LocalS3;
let s3: S3Client;
beforeAll(async () => {
  storage = await startLocalS3({ bucket: 'checksums' });
  const { accessKeyId, secretAccessKey, endpoint, region } = storage.handlerSettings;
  s3 = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
});
afterAll(async () => {
  s3?.destroy();
  await storage?.close();
});

function route(config: RouteContext['config'] = {}): RouteContext {
  const merged = { ...storage.handlerSettings, checkUnsignedHeaders: false, keyPrefix: 'u/', ...config };
  return { config: merged, services: createRouteServices(merged, undefined) };
}

const body = (upload: UploadRequestBody['_upload'], extra: Partial<UploadRequestBody> = {}): UploadRequestBody => ({
  filename: 'cat.png',
  filetype: 'image/png',
  filesize: 100,
  _upload: upload,
  ...extra,
});

async function prepare(context: RouteContext, request_: UploadRequestBody) {
  return preparePresigned(context, await decideObject(context, request_, request), request_);
}

describe('preparations with a checksum', () => {
  it('a presigned single PUT without the value: 400 CHECKSUM_REQUIRED naming the algorithm, before onBeforeUpload runs', async () => {
    const onBeforeUpload = vi.fn();
    const context = route({ checksum: 'crc32c', onBeforeUpload });
    await expect(decideObject(context, body({ strategy: 'presigned' }), request)).rejects.toMatchObject({ code: 'CHECKSUM_REQUIRED', checksum: 'crc32c', status: 400 });
    expect(onBeforeUpload).not.toHaveBeenCalled();
    // A multipart create asks for none: its parts are signed as they are hashed.
    await expect(decideObject(context, body({ strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } }), request)).resolves.toMatchObject({
      checksum: { algorithm: 'crc32c' },
    });
  });

  it("signs the request's checksum into the URL: storage stores those bytes and refuses others under it", async () => {
    const bytes = randomBytes(100);
    const checksum = { algorithm: 'sha256' as const, value: sha256(bytes) };
    const answer = (await prepare(route({ checksum: 'crc32c' }), body({ strategy: 'presigned', checksum }))) as PresignedUploadResponse;
    expect(answer).toMatchObject({ checksum: 'sha256', headers: { 'x-amz-checksum-sha256': checksum.value } });
    const other = await fetch(answer.url, { method: 'PUT', headers: answer.headers, body: randomBytes(100) });
    expect(other.status).toBe(400);
    const stored = await fetch(answer.url, { method: 'PUT', headers: answer.headers, body: bytes });
    expect(stored.status).toBe(200);
  });

  it('a composite value (-N) outside a content-addressed multipart create: 400 INVALID_CHECKSUM', async () => {
    const checksum = { algorithm: 'sha256' as const, value: `${sha256(randomBytes(1))}-2` };
    await expect(decideObject(route({ checksum: 'sha256' }), body({ strategy: 'presigned', checksum }), request)).rejects.toMatchObject({ code: 'INVALID_CHECKSUM' });
  });

  it('a multipart upload with a checksum signs no part at create; sign-parts needs each part\'s checksum', async () => {
    const context = route({ checksum: 'crc32c' });
    // A value sent with it (not content-addressed) is not bound: storage's own report is the object's checksum.
    const checksum = { algorithm: 'crc32c' as const, value: 'yZRlqg==' };
    const create = body({ strategy: 'presigned', checksum, multipart: { action: 'create', partSize: 5 * 1024 * 1024 } }, { filesize: 6 * 1024 * 1024 });
    const created = (await runMultipart(context, create._upload.multipart!, create, request)) as MultipartUploadResponse;
    expect(created).toMatchObject({ checksum: 'crc32c', parts: [] });
    const ticket = created.ticket;
    expect(await context.services.multipartTickets().verify(ticket)).not.toHaveProperty('checksumValue');
    await expect(runMultipart(context, { action: 'sign-parts', ticket, partNumbers: [1] }, create, request)).rejects.toMatchObject({ code: 'INVALID_CHECKSUM' });
    await expect(runMultipart(context, { action: 'sign-parts', ticket, partNumbers: [1], checksums: ['rosUhgp5mIg='] }, create, request)).rejects.toMatchObject({
      code: 'INVALID_CHECKSUM',
    });
    const signed = await runMultipart(context, { action: 'sign-parts', ticket, partNumbers: [1], checksums: ['yZRlqg=='] }, create, request);
    expect(signed).toMatchObject({ parts: [{ partNumber: 1, headers: { 'x-amz-checksum-crc32c': 'yZRlqg==' } }] });
    await runMultipart(context, { action: 'abort', ticket }, create, request);
  });
});

describe('the completion', () => {
  it("refuses (409 CHECKSUM_MISMATCH) and deletes an object whose stored checksum is not the receipt's", async () => {
    const bytes = randomBytes(50);
    const context = route({ checksum: 'sha256', onUploadComplete: () => ({}) });
    const answer = (await prepare(context, body({ strategy: 'presigned', checksum: { algorithm: 'sha256', value: sha256(bytes) } }))) as PresignedUploadResponse;
    // Other bytes stored under the key by someone holding storage credentials (with their own right checksum).
    const other = randomBytes(50);
    await s3.send(new PutObjectCommand({ Bucket: 'checksums', Key: answer.key, Body: other, ChecksumSHA256: sha256(other) }));
    await expect(complete(context, { key: answer.key, receipt: answer.receipt! }, request)).rejects.toMatchObject({ code: 'CHECKSUM_MISMATCH', status: 409 });
    await expect(s3.send(new HeadObjectCommand({ Bucket: 'checksums', Key: answer.key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it("gives the hook the server's checksum (MD5 as hex)", async () => {
    const bytes = randomBytes(50);
    const hook = vi.fn(() => ({}));
    const context = route({ checksum: 'md5', onUploadComplete: hook });
    const value = createHash('md5').update(bytes).digest('base64');
    const answer = (await prepare(context, body({ strategy: 'presigned', checksum: { algorithm: 'md5', value } }))) as PresignedUploadResponse;
    expect((await fetch(answer.url, { method: 'PUT', headers: answer.headers, body: bytes })).status).toBe(200);
    expect(await complete(context, { key: answer.key, receipt: answer.receipt! }, request)).toMatchObject({
      checksum: { algorithm: 'md5', type: 'full-object', value: createHash('md5').update(bytes).digest('hex') },
    });
    expect(hook).toHaveBeenCalledWith(expect.objectContaining({ checksum: { algorithm: 'md5', type: 'full-object', value: createHash('md5').update(bytes).digest('hex') } }));
  });
});

describe('content-addressed routes', () => {
  it('name the key from the SHA-256; answer alreadyStored once storage holds it; the hook runs per deduplicated upload', async () => {
    const bytes = randomBytes(200);
    const hook = vi.fn(({ deduplicated }: { deduplicated?: true }) => ({ deduplicated: deduplicated ?? false }));
    const context = route({ contentAddressed: true, onUploadComplete: hook });
    const checksum = { algorithm: 'sha256' as const, value: sha256(bytes) };
    const hex = createHash('sha256').update(bytes).digest('hex');
    const first = (await prepare(context, body({ strategy: 'presigned', checksum }, { filename: 'Photo.PNG' }))) as PresignedUploadResponse;
    expect(first.key).toBe(`u/sha256/${hex}.png`);
    expect((await fetch(first.url, { method: 'PUT', headers: first.headers, body: bytes })).status).toBe(200);
    expect(await complete(context, { key: first.key, receipt: first.receipt! }, request)).toMatchObject({ serverData: { deduplicated: false } });

    const again = await prepare(context, body({ strategy: 'presigned', checksum }, { filename: 'copy.png' }));
    expect(again).toEqual({ key: first.key, bucket: 'checksums', region: expect.any(String), endpoint: storage.endpoint, checksum: 'sha256', alreadyStored: true, receipt: expect.any(String) });
    expect(again).not.toHaveProperty('url');
    const reported = await complete(context, { key: again.key, receipt: again.receipt! }, request);
    expect(reported).toMatchObject({ deduplicated: true, serverData: { deduplicated: true }, checksum: { algorithm: 'sha256', value: checksum.value } });
    expect(hook).toHaveBeenCalledTimes(2);
  });

  it('with limits, an alreadyStored answer counts its file with no bytes and holds nothing in flight', async () => {
    const bytes = randomBytes(64);
    const limits = { files: { max: 3, windowSeconds: 3600 }, bytes: { max: 100, windowSeconds: 3600 }, inFlight: 1 };
    const config = { ...storage.handlerSettings, checkUnsignedHeaders: false, keyPrefix: 'u/', contentAddressed: true, limits, onBeforeUpload: () => ({ subject: 'alice' }) };
    const host = { shared: createSharedServices(), onError: () => {}, limits: createRouteLimits(config, undefined, config, () => {}) };
    const withLimits: RouteContext = { config, services: createRouteServices(config, undefined, host) };
    const checksum = { algorithm: 'sha256' as const, value: sha256(bytes) };
    const request_ = body({ strategy: 'presigned', checksum }, { filesize: 64 });
    const first = (await prepare(withLimits, request_)) as PresignedUploadResponse;
    expect((await fetch(first.url, { method: 'PUT', headers: first.headers, body: bytes })).status).toBe(200);
    await complete(withLimits, { key: first.key, receipt: first.receipt! }, request);
    // Twice more (64 + 2 x 64 bytes would pass the 100-byte limit; inFlight 1 would refuse a held one): files 2 and 3.
    await expect(prepare(withLimits, request_)).resolves.toMatchObject({ alreadyStored: true });
    await expect(prepare(withLimits, request_)).resolves.toMatchObject({ alreadyStored: true });
    await expect(prepare(withLimits, request_)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'files' });
  });

  it('refuse a key from onBeforeUpload (500 INVALID_SETTINGS), the temporary-token strategy, a missing value, and storage without SHA-256', async () => {
    const checksum = { algorithm: 'sha256' as const, value: sha256(randomBytes(1)) };
    const keyed = route({ contentAddressed: true, onBeforeUpload: () => ({ key: 'u/mine.png' }) });
    await expect(decideObject(keyed, body({ strategy: 'presigned', checksum }), request)).rejects.toMatchObject({ code: 'INVALID_SETTINGS', status: 500 });
    const plain = route({ contentAddressed: true });
    await expect(decideObject(plain, { ...body({ strategy: 'presigned' }), _nextS3: { strategy: 'presigned' } }, request)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(decideObject(plain, body({ strategy: 'temporary-token', checksum }), request)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(decideObject(plain, body({ strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 }, checksum: { algorithm: 'sha256' } }), request)).rejects.toMatchObject({
      code: 'CHECKSUM_REQUIRED',
      checksum: 'sha256',
    });
    await expect(decideObject(plain, body({ strategy: 'presigned', checksum: { algorithm: 'crc32c', value: 'yZRlqg==' } }), request)).rejects.toMatchObject({
      code: 'CHECKSUM_UNSUPPORTED',
      checksum: 'sha256',
    });
    const radosgw = route({ contentAddressed: true, provider: 'ceph' });
    await expect(decideObject(radosgw, body({ strategy: 'presigned', checksum }), request)).rejects.toMatchObject({ code: 'INVALID_SETTINGS' });
  });
});
