import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import type { UploadRequestBody } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadHandlerConfig } from './config';
import { createUploadHandler } from './handler';
import type { LimitStore } from './limit-store';
import { memoryLimitStore } from './memory-limit-store';
import type { UploadRoutes } from './routes';
import { bytesWords, durationWords, perWindow, refusal } from './upload-limits';

// Quotas and rate limits through the Fetch handler. The refusals are decided before storage is asked (storage
// sits at a closed port: presigning is local); the completions and aborts store on a real local-s3.

const settings = {
  accessKeyId: 'AKID',
  secretAccessKey: 'SECRET',
  bucket: 'my-bucket',
  region: 'eu-west-1',
  endpoint: 'http://127.0.0.1:9',
  forcePathStyle: true,
  // No storage at that port: the check of unsigned headers runs in the integration suites.
  checkUnsignedHeaders: false,
} as const;

const MINUTE = 60;
const DAY = 86_400;
const GiB = 1024 ** 3;

function post(body: object): Request {
  return new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const presigned = (extra: Partial<UploadRequestBody> = {}) => ({ filename: 'cat.png', filetype: 'image/png', filesize: 100, _upload: { strategy: 'presigned' }, ...extra });

/** A handler whose uploads count against the subject `user-1` (or the body's `user`). */
function handlerWith(config: UploadHandlerConfig & { routes?: UploadRoutes }) {
  const logged: unknown[] = [];
  const handler = createUploadHandler({
    ...settings,
    onBeforeUpload: ({ body }) => ({ subject: typeof body.user === 'string' ? body.user : 'user-1' }),
    onError: (error) => logged.push(error),
    ...config,
  });
  return { handler, logged };
}

/** The answers of `count` preparations made one after the other. */
async function prepareInTurn(handler: (request: Request) => Promise<Response>, count: number, body: () => object = () => presigned()) {
  const responses: Response[] = [];
  for (let index = 0; index < count; index += 1) responses.push(await handler(post(body())));
  return responses;
}

/** A store that cannot answer: a stand-in for a Redis that is down (named so: not a real store). */
const rejectingStore: LimitStore = {
  reserve: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  settle: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  release: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
};

describe('limits: the refusals', () => {
  it('answers 429 RATE_LIMITED past the preparations of the window, with Retry-After and { error, code, limit, retryAfter }', async () => {
    const { handler } = handlerWith({ limits: { preparations: { max: 2, windowSeconds: MINUTE } } });
    const [first, second, third] = await prepareInTurn(handler, 3);
    expect([first!.status, second!.status]).toEqual([200, 200]);
    expect(third!.status).toBe(429);
    const retryAfter = Number(third!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(MINUTE);
    const body = await third!.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'limit', 'retryAfter']);
    expect(body).toMatchObject({ code: 'RATE_LIMITED', limit: 'preparations', retryAfter });
    // A window that began within the last second leaves 60 s: `1 minute` (CI met it at a minute's start).
    expect(body.error).toMatch(/^Too many uploads started: at most 2 per minute\. Try again in (\d+ seconds?|1 minute)\.$/);
  });

  it('answers 429 QUOTA_EXCEEDED past the bytes of the window; a bytes limit requires filesize and signs it as Content-Length', async () => {
    const { handler } = handlerWith({ limits: { bytes: { max: 250, windowSeconds: DAY } } });
    const noSize = await handler(post(presigned({ filesize: undefined })));
    expect(noSize.status).toBe(400);
    expect(await noSize.json()).toMatchObject({ code: 'INVALID_REQUEST', error: expect.stringContaining('"filesize"') });
    const granted = await handler(post(presigned({ filesize: 200 })));
    expect(granted.status).toBe(200);
    const { url } = await granted.json();
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    const refused = await handler(post(presigned({ filesize: 51 })));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'bytes', error: expect.stringMatching(/^Upload quota reached: at most 250 bytes per day\. Try again in /) });
    expect((await handler(post(presigned({ filesize: 50 })))).status).toBe(200);
  });

  it('answers 429 QUOTA_EXCEEDED past the files of the window and the uploads in flight', async () => {
    const files = handlerWith({ limits: { files: { max: 1, windowSeconds: DAY } } }).handler;
    const [, refusedFile] = await prepareInTurn(files, 2);
    expect(await refusedFile!.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'files', error: expect.stringMatching(/^Upload quota reached: at most 1 file per day\./) });
    const inFlight = handlerWith({ limits: { inFlight: 1 } }).handler;
    const [, refusedSlot] = await prepareInTurn(inFlight, 2);
    expect(refusedSlot!.status).toBe(429);
    // A single PUT holds its slot until its receipt ends (2 h) unless it is reported.
    expect(Number(refusedSlot!.headers.get('retry-after'))).toBeGreaterThan(7000);
    expect(await refusedSlot!.json()).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      limit: 'inFlight',
      error: 'Too many uploads at once: at most 1 in flight. Try again when one ends.',
    });
  });

  it('counts each subject apart; a route with its own limits apart from the routes that share the handler’s', async () => {
    const { handler } = handlerWith({
      limits: { files: { max: 1, windowSeconds: DAY } },
      routes: { avatar: {}, banner: {}, video: { limits: { files: { max: 1, windowSeconds: DAY } } } },
    });
    const file = (route: string, user = 'user-1') => handler(post({ ...presigned(), route, user }));
    expect((await file('avatar')).status).toBe(200);
    expect((await file('avatar', 'user-2')).status).toBe(200);
    // avatar and banner inherit the handler's limits: one count (scope `*`) for both.
    expect((await file('banner')).status).toBe(429);
    // video sets its own: counted apart.
    expect((await file('video')).status).toBe(200);
    expect((await file('video')).status).toBe(429);
  });

  it('leaves the subject out of the route’s context', async () => {
    const contexts: unknown[] = [];
    const storage = await startLocalS3({ bucket: 'context-bucket' });
    try {
      const handler = createUploadHandler({
        ...storage.handlerSettings,
        limits: { inFlight: 5 },
        onBeforeUpload: () => ({ subject: 'user-1', userId: 'u1' }),
        onUploadComplete: ({ context }) => void contexts.push(context),
      });
      const prepared = await (await handler(post(presigned()))).json();
      await fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: new Uint8Array(100) });
      const completed = await handler(post({ ...presigned(), _upload: { strategy: 'presigned', complete: { key: prepared.key, receipt: prepared.receipt } } }));
      expect(completed.status).toBe(200);
      expect(contexts).toEqual([{ userId: 'u1' }]);
    } finally {
      await storage.close();
    }
  });

  it('answers 500 INVALID_SETTINGS (logged) for limits without a subject on a Fetch handler, which sees no address', async () => {
    const { handler, logged } = handlerWith({ limits: { inFlight: 1 }, onBeforeUpload: () => {} });
    const response = await handler(post(presigned()));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal Server Error' });
    expect(logged).toEqual([expect.objectContaining({ code: 'INVALID_SETTINGS', message: 'limits need a subject: return `subject` from onBeforeUpload, or serve through toNodeHandler' })]);
  });

  it('refuses invalid limits when the handler is created', () => {
    expect(() => createUploadHandler({ limits: { files: { max: 1.5, windowSeconds: 60 } } })).toThrow(/limits\.files\.max/);
    expect(() => createUploadHandler({ routes: { a: { limits: { bytes: { max: 1, windowSeconds: 0 } } } } })).toThrow(/Route "a": `limits\.bytes\.windowSeconds`/);
    expect(() => createUploadHandler({ limits: {}, limitStoreFailure: 'open' as 'fail-open' })).toThrow(/limitStoreFailure/);
  });
});

describe('limits: a store that rejects', () => {
  it('fail-closed (the default): 503 LIMITS_UNAVAILABLE in words, nothing prepared, the store error to onError', async () => {
    const { handler, logged } = handlerWith({ limits: { inFlight: 3 }, limitStore: rejectingStore });
    const response = await handler(post(presigned()));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
    expect(await response.json()).toEqual({ error: 'Upload limits cannot be checked right now. Try again later.', code: 'LIMITS_UNAVAILABLE' });
    expect(logged).toEqual([expect.objectContaining({ message: 'connect ECONNREFUSED 127.0.0.1:6379' })]);
  });

  it('fail-open: granted unchecked, the store error to onError', async () => {
    const { handler, logged } = handlerWith({ limits: { inFlight: 3 }, limitStore: rejectingStore, limitStoreFailure: 'fail-open' });
    const response = await handler(post(presigned()));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ url: expect.any(String), receipt: expect.any(String) });
    expect(logged).toHaveLength(1);
  });
});

describe('limits on storage (local-s3): receipts, settle, release', () => {
  let storage: LocalS3;
  beforeAll(async () => {
    storage = await startLocalS3({ bucket: 'limits-bucket' });
  });
  afterAll(() => storage?.close());

  /** A memory store that notes each settle and release it is asked for (a real store, watched). */
  function watchedStore() {
    const store = memoryLimitStore();
    const calls: string[] = [];
    const watched: LimitStore = {
      reserve: (reservation) => store.reserve(reservation),
      settle: async (id, size) => {
        const settled = await store.settle(id, size);
        calls.push(`settle ${size} of ${settled?.reserved ?? 'none'}`);
        return settled;
      },
      release: async (id) => {
        calls.push('release');
        await store.release(id);
      },
    };
    return { store: watched, calls };
  }

  it('issues a receipt without onUploadComplete; the report completes it and settles the bytes to the stored size', async () => {
    const { store, calls } = watchedStore();
    const handler = createUploadHandler({ ...storage.handlerSettings, limits: { bytes: { max: 1000, windowSeconds: DAY } }, limitStore: store, onBeforeUpload: () => ({ subject: 'u' }) });
    const prepared = await (await handler(post(presigned({ filesize: 600 })))).json();
    expect(prepared.receipt).toEqual(expect.any(String));
    expect((await fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: new Uint8Array(600) })).status).toBe(200);
    const report = { ...presigned(), _upload: { strategy: 'presigned', complete: { key: prepared.key, receipt: prepared.receipt } } };
    const completed = await handler(post(report));
    expect(await completed.json()).toEqual({ key: prepared.key, size: 600 });
    // A second report settles nothing more.
    expect((await handler(post(report))).status).toBe(200);
    expect(calls).toEqual(['settle 600 of 600', 'settle 600 of none']);
    expect((await handler(post(presigned({ filesize: 401 })))).status).toBe(429);
    expect((await handler(post(presigned({ filesize: 400 })))).status).toBe(200);
  });

  it('releases the reservation of an aborted multipart upload; a complete settles it', async () => {
    const { store, calls } = watchedStore();
    const handler = createUploadHandler({
      ...storage.handlerSettings,
      limits: { bytes: { max: 12 * 1024 * 1024, windowSeconds: DAY }, inFlight: 1 },
      limitStore: store,
      onBeforeUpload: () => ({ subject: 'u' }),
    });
    const create = (filesize: number) =>
      handler(post({ filename: 'v.bin', filetype: 'application/octet-stream', filesize, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } } }));
    const created = await (await create(10 * 1024 * 1024)).json();
    expect(created.ticket).toEqual(expect.any(String));
    expect(await (await create(1024)).json()).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'inFlight' });
    const abort = await handler(post({ filename: 'v.bin', filetype: 'application/octet-stream', _upload: { strategy: 'presigned', multipart: { action: 'abort', ticket: created.ticket } } }));
    expect(await abort.json()).toEqual({ aborted: true });
    expect(calls).toEqual(['release']);
    // Its 10 MiB and its slot are back: another 10 MiB upload fits.
    const again = await (await create(10 * 1024 * 1024)).json();
    expect(again.ticket).toEqual(expect.any(String));
    const parts = [];
    for (const part of again.parts as { partNumber: number; url: string; headers?: Record<string, string> }[]) {
      // Two parts of 5 MiB.
      const put = await fetch(part.url, { method: 'PUT', headers: part.headers, body: new Uint8Array(5 * 1024 * 1024) });
      parts.push({ partNumber: part.partNumber, etag: put.headers.get('etag')! });
    }
    const complete = await handler(post({ filename: 'v.bin', filetype: 'application/octet-stream', _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket: again.ticket, parts } } }));
    expect(await complete.json()).toMatchObject({ key: again.key });
    expect(calls).toEqual(['release', `settle ${10 * 1024 * 1024} of ${10 * 1024 * 1024}`]);
  });

  it('releases the reservation of a preparation that fails after it (storage refuses CreateMultipartUpload)', async () => {
    const { store, calls } = watchedStore();
    const handler = createUploadHandler({ ...settings, limits: { inFlight: 1 }, limitStore: store, onBeforeUpload: () => ({ subject: 'u' }), onError: () => {} });
    const create = () =>
      handler(post({ filename: 'v.bin', filetype: 'application/octet-stream', filesize: 1024, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } } }));
    // No storage at 127.0.0.1:9: the create fails (500) after the reservation, which is released.
    expect((await create()).status).toBe(500);
    expect(calls).toEqual(['release']);
    expect((await create()).status).toBe(500);
    expect(calls).toEqual(['release', 'release']);
  });
});

describe('limits: refusals in words', () => {
  it('says windows, waits and sizes as a person would', () => {
    expect([1, 60, 300, 3600, 7200, DAY, 7 * DAY, 90].map(perWindow)).toEqual([
      'per second',
      'per minute',
      'per 5 minutes',
      'per hour',
      'per 2 hours',
      'per day',
      'per 7 days',
      'per 90 seconds',
    ]);
    expect([1, 42, 60, 61, 3 * 3600 - 100, 2 * DAY].map(durationWords)).toEqual(['1 second', '42 seconds', '1 minute', '2 minutes', '3 hours', '2 days']);
    expect([0, 1, 1000, 1024, 1536, 5 * GiB, 10 * 1024 ** 4].map(bytesWords)).toEqual(['0 bytes', '1 byte', '1,000 bytes', '1 KiB', '1.5 KiB', '5 GiB', '10 TiB']);
  });

  it('words the refusals as the design does', () => {
    const limits = {
      preparations: { max: 60, windowSeconds: MINUTE },
      bytes: { max: 5 * GiB, windowSeconds: DAY },
      files: { max: 1000, windowSeconds: DAY },
      inFlight: 3,
    };
    expect(refusal('preparations', 42, limits).message).toBe('Too many uploads started: at most 60 per minute. Try again in 42 seconds.');
    expect(refusal('bytes', 3 * 3600, limits).message).toBe('Upload quota reached: at most 5 GiB per day. Try again in 3 hours.');
    expect(refusal('files', 3 * 3600, limits).message).toBe('Upload quota reached: at most 1,000 files per day. Try again in 3 hours.');
    expect(refusal('inFlight', 30, limits).message).toBe('Too many uploads at once: at most 3 in flight. Try again when one ends.');
    expect(refusal('inFlight', 30, limits)).toMatchObject({ code: 'QUOTA_EXCEEDED', status: 429, limit: 'inFlight', retryAfter: 30 });
  });
});
