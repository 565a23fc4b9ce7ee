import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import type { CompletedPart, MultipartUploadResponse } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { completeNotifiedUploads, createUploadHandler, memoryLimitStore, type UploadHandler, type UploadHandlerConfig } from '../src/index';
import { toNodeHandler } from '../src/adapters/node';
import { putWithToken } from './put-with-token';

// Quotas and rate limits against real S3-compatible servers on 127.0.0.1 (s3rver, and Ceph radosgw when the run
// has one): a refused preparation stores nothing, storage enforces the reserved size of a single PUT, an aborted
// multipart upload and an expired one give their bytes back, a completion settles to the stored size, and a
// temporary-token upload stored larger than declared is deleted. The store is the default memory store, on a
// clock the test moves forward (expiry) where it needs to.

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;

const KiB = 1024;
const MiB = 1024 * KiB;
const PART = 5 * MiB;
const DAY = 86_400;
const radosgw = inject('radosgw');
const storages: { name: string; start(): Promise<Storage> }[] = [
  { name: 's3rver', start: () => startLocalS3() },
  ...(radosgw ? [{ name: 'radosgw', start: () => createTestBucket(radosgw, 'limits') }] : []),
];

const post = (body: object) =>
  new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The answer of one call: status, `Retry-After` and JSON body. */
async function call(handler: UploadHandler, body: object) {
  const response = await handler(post(body));
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

describe.each(storages)('limits against $name', ({ start }) => {
  let storage: Storage;
  let admin: S3Client;
  /** How far the store's clock runs ahead of the real one, in milliseconds. */
  let ahead = 0;
  let handler: UploadHandler;

  beforeAll(async () => {
    storage = await start();
    admin = storage.createClient();
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  /** A handler whose uploads by `user` count against `limits`, on a memory store whose clock the test moves. */
  function limited(limits: UploadHandlerConfig['limits'], extra: UploadHandlerConfig = {}): UploadHandler {
    ahead = 0;
    return (handler = createUploadHandler({
      ...storage.handlerSettings,
      limits,
      limitStore: memoryLimitStore({ now: () => Date.now() + ahead }),
      onBeforeUpload: () => ({ subject: 'user-1' }),
      ...extra,
    }));
  }

  const exists = (key: string) =>
    admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key })).then(
      () => true,
      () => false,
    );
  const presigned = (filesize: number) => call(handler, { filename: 'a.bin', filetype: 'application/octet-stream', filesize, _upload: { strategy: 'presigned' } });
  const put = (prepared: { url: string; headers: Record<string, string> }, size: number) =>
    fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: randomBytes(size) });
  const report = (prepared: { key: string; receipt: string }, strategy = 'presigned') =>
    call(handler, { filename: 'a.bin', filetype: 'application/octet-stream', _upload: { strategy, complete: { key: prepared.key, receipt: prepared.receipt } } });

  it('presigned over quota: 429 with Retry-After, nothing prepared; storage refuses a PUT of more than the reserved size', async () => {
    limited({ bytes: { max: 100 * KiB, windowSeconds: DAY } });
    const granted = await presigned(60 * KiB);
    expect(granted.status).toBe(200);
    const refused = await presigned(60 * KiB);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'bytes', retryAfter: Number(refused.retryAfter) });
    expect(refused.body).not.toHaveProperty('url');
    // The granted URL binds its 60 KiB: a larger body is refused by storage, the declared one stored.
    expect((await put(granted.body, 90 * KiB)).ok).toBe(false);
    expect(await exists(granted.body.key)).toBe(false);
    expect((await put(granted.body, 60 * KiB)).status).toBe(200);
  });

  it('a completed upload settles to the stored size: the bytes it did not use are free again', async () => {
    limited({ bytes: { max: 100 * KiB, windowSeconds: DAY } });
    // A temporary-token upload declares 80 KiB and stores 30 KiB.
    const tokenHandler = createUploadHandler({
      ...storage.handlerSettings,
      limits: { bytes: { max: 100 * KiB, windowSeconds: DAY } },
      limitStore: memoryLimitStore(),
      onBeforeUpload: () => ({ subject: 'user-1' }),
      ...('stsClient' in storage ? { stsClient: storage.stsClient as UploadHandlerConfig['stsClient'] } : {}),
    });
    if (!('stsClient' in storage)) {
      // radosgw's STS needs a role: the single PUT shows the same settle (its declared size is exact, so half a file is declared).
      const prepared = (await presigned(80 * KiB)).body;
      expect((await put(prepared, 80 * KiB)).status).toBe(200);
      expect((await report(prepared)).body).toEqual({ key: prepared.key, size: 80 * KiB });
      expect((await presigned(20 * KiB)).status).toBe(200);
      return;
    }
    handler = tokenHandler;
    const token = await call(handler, { filename: 'a.bin', filetype: 'application/octet-stream', filesize: 80 * KiB, _upload: { strategy: 'temporary-token' } });
    expect(token.status).toBe(200);
    expect((await call(handler, { filename: 'b.bin', filetype: 'application/octet-stream', filesize: 30 * KiB, _upload: { strategy: 'temporary-token' } })).status).toBe(429);
    await putWithToken(token.body, 30 * KiB);
    expect((await report(token.body, 'temporary-token')).body).toEqual({ key: token.body.key, size: 30 * KiB });
    // 30 KiB counted, not 80: 70 KiB fit.
    expect((await call(handler, { filename: 'c.bin', filetype: 'application/octet-stream', filesize: 70 * KiB, _upload: { strategy: 'temporary-token' } })).status).toBe(200);
  });

  it('a temporary-token upload stored larger than declared: 413 FILE_TOO_LARGE, the object removed, its reservation released', async () => {
    if (!('stsClient' in storage)) return; // radosgw's STS: radosgw-sts.test.ts
    handler = createUploadHandler({
      ...storage.handlerSettings,
      stsClient: storage.stsClient as UploadHandlerConfig['stsClient'],
      limits: { bytes: { max: 100 * KiB, windowSeconds: DAY } },
      limitStore: memoryLimitStore(),
      onBeforeUpload: () => ({ subject: 'user-1' }),
    });
    const token = await call(handler, { filename: 'a.bin', filetype: 'application/octet-stream', filesize: 10 * KiB, _upload: { strategy: 'temporary-token' } });
    await putWithToken(token.body, 90 * KiB);
    const refused = await report(token.body, 'temporary-token');
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await exists(token.body.key)).toBe(false);
    // Nothing of it is counted: the whole 100 KiB are free.
    expect((await call(handler, { filename: 'b.bin', filetype: 'application/octet-stream', filesize: 100 * KiB, _upload: { strategy: 'temporary-token' } })).status).toBe(200);
  });

  async function createMultipart(filesize: number) {
    return call(handler, { filename: 'v.bin', filetype: 'application/octet-stream', filesize, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: PART } } });
  }

  it('an aborted multipart upload gives its bytes back; a completed one settles', async () => {
    limited({ bytes: { max: 12 * MiB, windowSeconds: DAY }, inFlight: 1 });
    const created = (await createMultipart(10 * MiB)).body as MultipartUploadResponse;
    expect(created.ticket).toEqual(expect.any(String));
    expect((await createMultipart(2 * MiB)).body).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'inFlight' });
    const aborted = await call(handler, { filename: 'v.bin', filetype: 'application/octet-stream', _upload: { strategy: 'presigned', multipart: { action: 'abort', ticket: created.ticket } } });
    expect(aborted.body).toEqual({ aborted: true });
    const again = (await createMultipart(10 * MiB)).body as MultipartUploadResponse;
    expect(again.ticket).toEqual(expect.any(String));
    const parts: CompletedPart[] = await Promise.all(
      (again.parts ?? []).map(async ({ partNumber, url, headers }) => {
        const sent = await fetch(url, { method: 'PUT', headers, body: randomBytes(PART) });
        expect(sent.status).toBe(200);
        return { partNumber, etag: sent.headers.get('etag')! };
      }),
    );
    const completed = await call(handler, { filename: 'v.bin', filetype: 'application/octet-stream', _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket: again.ticket, parts } } });
    expect(completed.body).toMatchObject({ key: again.key });
    // Settled: its slot is free; its 10 MiB stay counted (2 MiB left).
    expect((await createMultipart(3 * MiB)).body).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'bytes' });
    expect((await createMultipart(2 * MiB)).status).toBe(200);
  });

  it('a storage notification settles too, on the memory store the handler made of the same configuration object', async () => {
    const config: UploadHandlerConfig = {
      ...storage.handlerSettings,
      limits: { inFlight: 1 },
      onBeforeUpload: () => ({ subject: 'user-1' }),
      onUploadComplete: () => ({ ok: true }),
    };
    handler = createUploadHandler(config);
    const prepared = (await presigned(10 * KiB)).body;
    expect((await put(prepared, 10 * KiB)).status).toBe(200);
    expect((await presigned(1)).body).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'inFlight' });
    const record = { eventSource: 'aws:s3', eventName: 'ObjectCreated:Put', s3: { bucket: { name: storage.bucket }, object: { key: encodeURIComponent(prepared.key), size: 10 * KiB } } };
    const notified = await completeNotifiedUploads(config, { Records: [record] });
    expect(notified.objects).toEqual([expect.objectContaining({ key: prepared.key, outcome: 'completed' })]);
    // Settled by the notification: its in-flight slot is free.
    expect((await presigned(1)).status).toBe(200);
  });

  it('an upload never reported gives its bytes back when its receipt ends (2 h)', async () => {
    limited({ bytes: { max: 100 * KiB, windowSeconds: 7 * DAY }, inFlight: 1 });
    const prepared = (await presigned(100 * KiB)).body;
    expect((await put(prepared, 100 * KiB)).status).toBe(200);
    expect((await presigned(1)).body).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    // Two hours and a second later (the receipt's end), on the store's clock: the slot and the bytes are free.
    ahead = 2 * 3600 * 1000 + 1000;
    expect((await presigned(100 * KiB)).status).toBe(200);
  });
});

describe('limits through the node adapter: the client address is the default subject', () => {
  let server: Server;
  let base: string;
  let storage: LocalS3;
  const servers: Server[] = [];

  async function serve(trustProxy: boolean): Promise<string> {
    const handler = createUploadHandler({ ...storage.handlerSettings, limits: { files: { max: 1, windowSeconds: DAY } } });
    server = createServer(toNodeHandler(handler, { trustProxy }));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }
  const prepare = (forwardedFor?: string) =>
    fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify({ filename: 'a.bin', filetype: 'application/octet-stream', filesize: 1, _upload: { strategy: 'presigned' } }),
    }).then(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }));

  beforeAll(async () => {
    storage = await startLocalS3();
  });
  afterAll(async () => {
    for (const each of servers) await new Promise((resolve) => each.close(resolve));
    await storage?.close();
  });

  it('counts the socket address, and ignores X-Forwarded-For without trustProxy', async () => {
    base = await serve(false);
    expect((await prepare('203.0.113.1')).status).toBe(200);
    const refused = await prepare('203.0.113.2');
    expect(refused).toMatchObject({ status: 429, body: { code: 'QUOTA_EXCEEDED', limit: 'files' } });
    // Written by the node adapter as the Fetch handler sends it.
    expect(refused.retryAfter).toBe(String(refused.body.retryAfter));
  });

  it('with trustProxy, counts the first X-Forwarded-For address', async () => {
    base = await serve(true);
    expect((await prepare('203.0.113.1, 10.0.0.1')).status).toBe(200);
    expect((await prepare('203.0.113.2, 10.0.0.1')).status).toBe(200);
    expect((await prepare('203.0.113.1')).status).toBe(429);
    // Not an address: the socket's is counted.
    expect((await prepare('unknown')).status).toBe(200);
    expect((await prepare()).status).toBe(429);
  });
});
