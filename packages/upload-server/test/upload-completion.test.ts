import { createHash, randomBytes } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import type { CompletedPart, MultipartUploadResponse, SignedPart } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createUploadHandler,
  UploadError,
  type UploadCompleteContext,
  type UploadHandler,
  type UploadHandlerConfig,
} from '../src/index';
import { COMPLETION_CLAIM_SECONDS, COMPLETION_MARKER_PREFIX } from '../src/completion-marker';
import { putWithToken } from './put-with-token';

// `onUploadComplete` against real S3-compatible servers on 127.0.0.1: the browser's requests are made with
// Node's fetch (PUT to the presigned URL, the parts, the completion report), the handler checks the object
// with HEAD and runs the hook once per stored object through a marker on storage. s3rver (embedded) and Ceph
// radosgw; the conditional create the marker relies on (`If-None-Match: *` on PUT) is measured on each.

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;

const MiB = 1024 * 1024;
const radosgw = inject('radosgw');
const storages: { name: string; start(): Promise<Storage>; conditionalCreate: boolean }[] = [
  // local-s3 honours If-None-Match: * and keeps S3's `-N` multipart ETag (issue 46).
  { name: 's3rver', start: () => startLocalS3(), conditionalCreate: true },
  ...(radosgw ? [{ name: 'radosgw', start: () => createTestBucket(radosgw, 'completion'), conditionalCreate: true }] : []),
];

const status = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

describe.each(storages)('onUploadComplete against $name', ({ start, conditionalCreate }) => {
  let storage: Storage;
  let admin: S3Client;
  /** Every call of the hook, in order. */
  const calls: Omit<UploadCompleteContext, 'request'>[] = [];
  let hook: UploadHandlerConfig['onUploadComplete'];
  let config: UploadHandlerConfig;
  let handler: UploadHandler;
  const logged: unknown[] = [];

  beforeAll(async () => {
    storage = await start();
    admin = storage.createClient();
    hook = async ({ request: _request, ...context }) => {
      calls.push(context);
      // Slow enough that concurrent reports meet while it runs.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { photoId: `photo-${calls.length}`, size: context.size };
    };
    config = {
      ...storage.handlerSettings,
      maxFileSize: 20 * MiB,
      onBeforeUpload: () => ({ metadata: { 'user-id': '42' } }),
      onUploadComplete: (context) => hook!(context),
      onError: (error) => logged.push(error),
    };
    handler = createUploadHandler(config);
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  async function call(marker: object, extra: object = {}, to: UploadHandler = handler) {
    const response = await to(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'photo.jpg', filetype: 'image/jpeg', _upload: marker, ...extra }),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  /** A presigned single PUT as the browser sends it; resolves to the preparation answer and the PUT's ETag. */
  async function putPresigned(size: number) {
    const prepared = await call({ strategy: 'presigned' }, { filesize: size });
    expect(prepared.status).toBe(200);
    const put = await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(size) });
    expect(put.status).toBe(200);
    return { ...(prepared.body as { key: string; receipt: string }), etag: put.headers.get('etag') };
  }

  const complete = (key: string, receipt: string) => call({ strategy: 'presigned', complete: { key, receipt } });

  it(`storage ${conditionalCreate ? 'honours' : 'ignores'} If-None-Match: * on PutObject (the marker's conditional create)`, async () => {
    const Key = `probe/${Math.random().toString(36).slice(2)}`;
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key, Body: 'first', IfNoneMatch: '*' }));
    const second = await admin
      .send(new PutObjectCommand({ Bucket: storage.bucket, Key, Body: 'second', IfNoneMatch: '*' }))
      .then(() => 200, status);
    expect(second).toBe(conditionalCreate ? 412 : 200);
  });

  it('presigned single PUT: the answer holds a receipt; the hook runs once with the HEAD values; serverData is answered', async () => {
    const before = calls.length;
    const { key, receipt, etag } = await putPresigned(1000);
    expect(typeof receipt).toBe('string');
    const first = await complete(key, receipt);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ key, size: 1000, serverData: { photoId: `photo-${before + 1}`, size: 1000 } });
    expect(calls.length).toBe(before + 1);
    const seen = calls.at(-1)!;
    expect(seen).toMatchObject({ key, size: 1000, etag, contentType: 'image/jpeg', metadata: { 'user-id': '42' } });
    expect(seen.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(seen.lastModified).toBeInstanceOf(Date);

    // Repeated (a lost answer, a second tab): the first answer, the hook not run again.
    const again = await complete(key, receipt);
    expect(again).toEqual(first);
    expect(calls.length).toBe(before + 1);
  });

  it(`concurrent reports of one upload to three instances: ${conditionalCreate ? 'the hook runs once, all get its answer' : 'each gets an answer (s3rver ignores If-None-Match: dedupe on idempotencyKey)'}`, async () => {
    const before = calls.length;
    const { key, receipt } = await putPresigned(2000);
    // Three instances behind a load balancer: three handlers, nothing shared but storage.
    const instances = [handler, createUploadHandler(config), createUploadHandler(config)];
    const answers = await Promise.all(instances.map((instance) => call({ strategy: 'presigned', complete: { key, receipt } }, {}, instance)));
    for (const answer of answers) expect(answer.status).toBe(200);
    const ran = calls.slice(before);
    expect(new Set(ran.map((context) => context.idempotencyKey)).size).toBe(1);
    if (conditionalCreate) {
      expect(ran.length).toBe(1);
      expect(answers.map((answer) => answer.body)).toEqual(Array(3).fill(answers[0]!.body));
    }
  });

  it('a forged completion for another key gets 400 and runs nothing', async () => {
    const before = calls.length;
    const mine = await putPresigned(100);
    const other = await putPresigned(100);
    // Another upload's receipt with this key; a receipt altered by one character; a made-up one.
    // (Not the last character: its low 2 bits are base64 padding, which decoding ignores.)
    const [expiry, signature] = mine.receipt.split('.') as [string, string];
    const altered = `${expiry}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const receipt of [other.receipt, altered, `${Math.floor(Date.now() / 1000) + 3600}.${'A'.repeat(43)}`]) {
      const answer = await complete(mine.key, receipt);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_REQUEST');
    }
    expect(calls.length).toBe(before);
  });

  it('a completion before anything is stored gets 400', async () => {
    const prepared = await call({ strategy: 'presigned' }, { filesize: 10 });
    const answer = await complete(prepared.body.key, prepared.body.receipt);
    expect(answer).toMatchObject({ status: 400, body: { error: 'Nothing is stored at this key yet.' } });
  });

  it('the same key stored again is a new upload: the hook runs again with the new ETag', async () => {
    const fixedKey = `next-s3-uploads/avatars/${Math.random().toString(36).slice(2)}.jpg`;
    const fixed = createUploadHandler({ ...storage.handlerSettings, key: () => fixedKey, onUploadComplete: (context) => hook!(context) });
    const before = calls.length;
    for (const size of [300, 400]) {
      const prepared = await call({ strategy: 'presigned' }, { filesize: size }, fixed);
      await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(size) });
      const answer = await call({ strategy: 'presigned', complete: { key: fixedKey, receipt: prepared.body.receipt } }, {}, fixed);
      expect(answer.body.serverData.size).toBe(size);
    }
    expect(calls.slice(before).map((context) => context.size)).toEqual([300, 400]);
  });

  it('an UploadError from the hook answers its 4xx and keeps no answer: the next report runs it again', async () => {
    const { key, receipt } = await putPresigned(500);
    const normal = hook;
    hook = () => {
      throw new UploadError('FORBIDDEN', 'Photo albums are full.');
    };
    try {
      expect(await complete(key, receipt)).toEqual({ status: 403, body: { error: 'Photo albums are full.', code: 'FORBIDDEN' } });
      hook = () => {
        throw new Error('database down: secret connection string');
      };
      expect(await complete(key, receipt)).toEqual({ status: 500, body: { error: 'Internal Server Error' } });
      expect(String(logged.at(-1))).toContain('database down');
    } finally {
      hook = normal;
    }
    const answer = await complete(key, receipt);
    expect(answer.status).toBe(200);
    expect(answer.body.serverData).toMatchObject({ size: 500 });
  });

  it('presigned multipart: the complete request runs the hook (etag of N parts) and answers serverData; a retried complete gets the first answer', async () => {
    const before = calls.length;
    const size = 5 * MiB + 1234;
    const created = await call({ strategy: 'presigned', multipart: { action: 'create', partSize: 5 * MiB } }, { filesize: size });
    expect(created.status).toBe(200);
    const { key, ticket } = created.body as MultipartUploadResponse;
    const signed = await call({ strategy: 'presigned', multipart: { action: 'sign-parts', ticket, partNumbers: [1, 2] } }, { filesize: size });
    const bytes = randomBytes(size);
    const parts: CompletedPart[] = [];
    for (const part of signed.body.parts as SignedPart[]) {
      const body = bytes.subarray((part.partNumber - 1) * 5 * MiB, part.partNumber * 5 * MiB);
      const put = await fetch(part.url, { method: 'PUT', headers: part.headers, body });
      parts.push({ partNumber: part.partNumber, etag: put.headers.get('etag')! });
    }
    const completeMultipart = () => call({ strategy: 'presigned', multipart: { action: 'complete', ticket, parts } }, { filesize: size });
    const first = await completeMultipart();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ key, serverData: { photoId: `photo-${before + 1}`, size } });
    expect(calls.slice(before)).toHaveLength(1);
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }));
    expect(calls.at(-1)).toMatchObject({ key, size, etag: head.ETag, contentType: 'image/jpeg' });

    // s3rver's multipart ETag has no `-N`, so a retried complete cannot tell its object from another one
    // there (multipart-storage: 404 NO_SUCH_UPLOAD); radosgw's can.
    const again = await completeMultipart();
    if (conditionalCreate) expect(again).toEqual(first);
    else expect(again.status).toBe(404);
    expect(calls.slice(before)).toHaveLength(1);
  });

  /** The marker key of the object stored at `key`, as the handler names it (SHA-256 of bucket, key, ETag, Last-Modified). */
  async function markerKey(key: string) {
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }));
    const identity = `${storage.bucket}\n${key}\n${head.ETag}\n${head.LastModified!.toISOString()}`;
    return `${COMPLETION_MARKER_PREFIX}${createHash('sha256').update(identity).digest('base64url')}.json`;
  }

  it(`a claim older than ${COMPLETION_CLAIM_SECONDS} s (an instance that stopped mid-hook) is taken over: the hook runs`, async () => {
    const before = calls.length;
    const { key, receipt } = await putPresigned(600);
    const stale = { state: 'running', claimedAt: Date.now() - (COMPLETION_CLAIM_SECONDS + 1) * 1000 };
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: await markerKey(key), Body: JSON.stringify(stale) }));
    const answer = await complete(key, receipt);
    expect(answer.status).toBe(200);
    expect(calls.length).toBe(before + 1);
  });

  it('a report that finds the hook running elsewhere for over 10 s gets 409 COMPLETION_IN_PROGRESS, then the answer once stored', async () => {
    const before = calls.length;
    const { key, receipt } = await putPresigned(700);
    const Key = await markerKey(key);
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key, Body: JSON.stringify({ state: 'running', claimedAt: Date.now() }) }));
    const waiting = await complete(key, receipt);
    expect(waiting).toEqual({
      status: 409,
      body: { code: 'COMPLETION_IN_PROGRESS', error: 'This upload is being completed by another request: ask again in a few seconds.' },
    });
    const done = { state: 'done', claimedAt: Date.now(), serverData: { photoId: 'from-the-other-instance' } };
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key, Body: JSON.stringify(done) }));
    expect((await complete(key, receipt)).body.serverData).toEqual({ photoId: 'from-the-other-instance' });
    expect(calls.length).toBe(before);
  });

  it('refuses to prepare a key under the completion markers', async () => {
    const open = createUploadHandler({ ...storage.handlerSettings, keyPrefix: '', key: () => '.upbeam/completions/x.json', onError: () => {} });
    expect((await call({ strategy: 'presigned' }, { filesize: 1 }, open)).status).toBe(500);
  });
});

describe('temporary-token completion against s3rver (its STS stand-in)', () => {
  let storage: LocalS3;
  let handler: UploadHandler;
  let admin: S3Client;
  const calls: string[] = [];

  beforeAll(async () => {
    storage = await startLocalS3();
    admin = storage.createClient();
    handler = createUploadHandler({
      ...storage.handlerSettings,
      stsClient: storage.stsClient,
      allowedContentTypes: ['image/*'],
      onUploadComplete: ({ key }) => {
        calls.push(key);
        return { stored: key };
      },
    });
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  const call = (body: object) =>
    handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));

  /** Credentials for a declared image, then a PutObject of `sentType` with them, as a browser could. */
  async function uploadWithToken(sentType: string) {
    const prepared = await (await call({ filename: 'a.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'temporary-token' } })).json();
    await putWithToken(prepared, 10, sentType);
    return prepared as { key: string; receipt: string };
  }

  const complete = (key: string, receipt: string) =>
    call({ filename: 'a.png', filetype: 'image/png', _upload: { strategy: 'temporary-token', complete: { key, receipt } } });

  it('a stored object of the declared type: the hook runs, serverData answered', async () => {
    const { key, receipt } = await uploadWithToken('image/png');
    const response = await complete(key, receipt);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ key, size: 10, serverData: { stored: key } });
    expect(calls).toEqual([key]);
  });

  it('a stored object of a type not allowed (declared image, sent HTML) is deleted: 415, no hook', async () => {
    const { key, receipt } = await uploadWithToken('text/html');
    const response = await complete(key, receipt);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: 'Stored file has type "text/html"; allowed: image/*. It was deleted.',
    });
    expect(calls).not.toContain(key);
    await expect(admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
  });
});
