import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { serve, type ServerType } from '@hono/node-server';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startFaultProxy, type FaultProxy, type S3Request } from '@upbeam/fault-proxy';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, startThrottleProxy, type TestBrowser, type TestPage, type ThrottleProxy } from '@upbeam/test-browser';
import { createUploadHandler, defineRoutes, type UploadHandler } from '@upbeam/upload-server';
import { Hono } from 'hono';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The presigned-post strategy from real browsers (chromium, Firefox, WebKit) against @upbeam/local-s3 and Ceph
// radosgw on another origin: the page runs `uploadFile` of `@upbeam/upload-client`'s built ESM (its POST chunk
// loaded with import(), as an app's bundler splits it), storage behind the fault proxy (a connection reset for
// real mid-body) and the throttling proxy (bytes held while a cancel lands). The form's progress counts the
// file's bytes only and reaches 100 % on storage's 201 alone; a cancel and a reset fall back to 0; a reset is
// sent again and stored byte-identical; the route's hook runs and its answer comes back as `serverData`; a route
// binds the content type; a file larger than the policy's size range is refused by storage itself (400
// EntityTooLarge) once, with a clear error. On radosgw without the copy-refusing bucket policy, a `presigned`
// single upload is answered with a POST form (an answer with `fields`) and the client POSTs it.

const CLIENT_PACKAGE = fileURLToPath(new URL('../../../packages/upload-client', import.meta.url));
const connection = inject('radosgw');
const MiB = 1024 * 1024;
/** The stored files: ~1 s through the throttle, several progress reports in every engine. */
const SIZE = 6 * MiB + 13;
const BYTES_PER_SECOND = 8 * MiB;
/** The `small` route's limit, which the client is not told of (the stand-in below lowers the declared size). */
const SMALL_MAX = MiB;
const OVER_RANGE_MESSAGE = 'The file is larger than this upload allows: storage refused it (400 EntityTooLarge).';

/** A route's hook calls: key and size. */
const calls: { key: string; size: number }[] = [];
const routes = defineRoutes({
  files: { onUploadComplete: ({ key, size }) => (calls.push({ key, size }), { stored: key, size }) },
  images: { allowedContentTypes: ['image/png'], maxFileSize: 4 * MiB },
  small: { maxFileSize: SMALL_MAX },
  // No hook, so no upload record: the handler writes nothing to storage while the proxy holds its bodies.
  plain: {},
});

const PAGE = '<!doctype html><script type="module">import * as upbeam from "/client/index.js"; window.upbeam = upbeam;</script>';

/** The chunks of `@upbeam/upload-client`'s `dist/index.js` bundled for the browser, by file name. */
async function bundleClient(): Promise<Map<string, string>> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root: CLIENT_PACKAGE,
    build: { write: false, minify: false, lib: { entry: join(CLIENT_PACKAGE, 'dist/index.js'), formats: ['es'], fileName: 'index' } },
  })) as { output: { fileName: string; type: string; code?: string }[] } | { output: { fileName: string; type: string; code?: string }[] }[];
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output);
  return new Map(chunks.filter((chunk) => chunk.type === 'chunk').map((chunk) => [chunk.fileName, chunk.code!]));
}

/** One storage behind its proxies, and the handler that signs for them. */
interface Storage {
  name: string;
  bucket: string;
  admin: S3Client;
  faults: FaultProxy;
  throttle: ThrottleProxy;
  handler: UploadHandler;
  /** The key the endpoint gave each `filename`, the last one asked for. */
  keys: Map<string, string>;
  /** The `filename`s the endpoint answered with a POST form (`fields`). */
  posted: Set<string>;
  close(): Promise<void>;
}

let server: ServerType;
let origin: string;
let local: LocalS3 | undefined;
const storages = new Map<string, Storage>();

/** Puts `target` behind the fault proxy and the throttle, with a handler of {@link routes} signing for the throttle. */
async function behindProxies(
  name: string,
  target: string,
  settings: Record<string, unknown> & { bucket: string },
  admin: S3Client,
  checkUnsignedHeaders = false,
): Promise<Storage> {
  const faults = await startFaultProxy({ target });
  const throttle = await startThrottleProxy(faults.url, Infinity);
  // The check of unsigned headers (its probe PUTs) only where a test needs it: it would pass the proxies.
  const handler = createUploadHandler({ ...settings, endpoint: throttle.url, routes, checkUnsignedHeaders });
  return {
    name,
    bucket: settings.bucket,
    admin,
    faults,
    throttle,
    handler,
    keys: new Map(),
    posted: new Set(),
    close: async () => {
      admin.destroy();
      await throttle.close();
      await faults.close();
    },
  };
}

beforeAll(async () => {
  const chunks = await bundleClient();
  const app = new Hono();
  app.post('/api/s3-upload/:storage', async (c) => {
    const storage = storages.get(c.req.param('storage'))!;
    const body = (await c.req.json()) as { route?: string; filename?: string; filesize?: number; _upload?: { complete?: unknown } };
    // A stand-in for a client that declares a smaller size than it sends: the `small` route's policy is then
    // signed for its range (1 byte to maxFileSize), and storage alone can refuse the larger body.
    if (body.route === 'small' && !body._upload?.complete) body.filesize = 1000;
    const request = new Request(c.req.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const response = await storage.handler(request);
    const { key, fields } = (await response.clone().json()) as { key?: string; fields?: unknown };
    if (response.ok && key && body.filename && !body._upload?.complete) storage.keys.set(body.filename, key);
    if (response.ok && fields && body.filename) storage.posted.add(body.filename);
    return response;
  });
  app.get('/client/:name', (c) => {
    const code = chunks.get(c.req.param('name'));
    return code === undefined ? c.notFound() : c.body(code, 200, { 'content-type': 'text/javascript' });
  });
  app.get('/', (c) => c.html(PAGE));
  server = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  local = await startLocalS3({ allowedOrigins: [origin] });
  storages.set('local-s3', await behindProxies('local-s3', local.endpoint, local.handlerSettings, local.createClient()));
  if (connection) {
    const bucket = await createTestBucket(connection, 'post-e2e', { allowedOrigins: [origin] });
    storages.set('radosgw', await behindProxies('radosgw', connection.endpoint, bucket.handlerSettings, bucket.createClient()));
    // Without the copy-refusing bucket policy radosgw applies unsigned headers to a presigned PUT: the handler's
    // check refuses PUTs there and answers a `presigned` single upload with a POST form (issue 45 item 3).
    const open = await createTestBucket(connection, 'post-e2e-open', { allowedOrigins: [origin], refuseCopies: false });
    storages.set('radosgw-open', await behindProxies('radosgw-open', connection.endpoint, open.handlerSettings, open.createClient(), true));
  }
}, 60_000);

afterAll(async () => {
  for (const storage of storages.values()) await storage.close();
  await local?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** The bytes of a file of `size` made in the page (the same formula there). */
const bytesOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >> 12)) % 251);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** What the page saw of one upload. */
interface PageRun {
  /** Every `uploaded` reported, in order. */
  progress: number[];
  /** The code of each retried error. */
  retries: string[];
  result?: { url: string; key: string; bucket: string; serverData?: unknown };
  /** The rejection (not `error`: WebDriver would read a result with an `error` member as its own error). */
  failure?: { name: string; message: string; code?: string; status?: number; answerCode?: string };
}

/**
 * Starts `uploadFile` in the page with `strategy: 'presigned-post'` of a file of `size` bytes named `name` (a new
 * `Blob` of {@link bytesOf}), to `storage`'s endpoint; the run is read with {@link runOf}, cancelled with {@link cancel}.
 */
async function start(
  page: TestPage,
  storage: string,
  name: string,
  size: number,
  options: { route: string; type?: string; strategy?: 'presigned' | 'presigned-post' },
): Promise<void> {
  await page.evaluate(
    ([storage, name, size, { route, type, strategy }]) => {
      type Run = { progress: number[]; retries: string[]; result?: unknown; failure?: unknown; done?: boolean };
      type Client = { uploadFile(file: File, options: object): Promise<unknown> };
      const w = window as unknown as { upbeam: Client; runs?: Record<string, Run>; cancels?: Record<string, () => void> };
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >> 12)) % 251);
      const file = new File([bytes], name, { type: type ?? 'application/octet-stream' });
      const controller = new AbortController();
      const run: Run = { progress: [], retries: [] };
      (w.runs ??= {})[name] = run;
      (w.cancels ??= {})[name] = () => controller.abort();
      w.upbeam
        .uploadFile(file, {
          strategy: strategy ?? 'presigned-post',
          route,
          endpoint: { url: `/api/s3-upload/${storage}` },
          signal: controller.signal,
          onProgress: ({ uploaded }: { uploaded: number }) => run.progress.push(uploaded),
          onRetry: ({ error }: { error: { code?: string } }) => run.retries.push(String(error.code)),
        })
        .then(
          (result) => (run.result = JSON.parse(JSON.stringify(result))),
          (error: { name: string; message: string; code?: string; status?: number; answerCode?: string }) => {
            const { name, message, code, status, answerCode } = error;
            run.failure = { name, message, code, status, answerCode };
          },
        )
        .finally(() => (run.done = true));
    },
    [storage, name, size, options] as const,
  );
}

/** The page's record of the upload of `name`, once it ended (bounded wait). */
async function runOf(page: TestPage, name: string, timeoutMs = 60_000): Promise<PageRun> {
  const read = () => page.evaluate((name) => (window as unknown as { runs: Record<string, PageRun & { done?: boolean }> }).runs[name]!, name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await read();
    if (run.done) return run;
    if (Date.now() > deadline) throw new Error(`${name}: the upload did not end within ${timeoutMs} ms (${JSON.stringify(run)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const cancel = (page: TestPage, name: string) => page.evaluate((name) => (window as unknown as { cancels: Record<string, () => void> }).cancels[name]!(), name);

/** A form POST (S3 POST Object) as the fault proxy sees it: a POST to the bucket. */
const isFormPost = (request: Pick<S3Request, 'method' | 'operation'>) => request.method === 'POST' && request.operation === 'Other';

async function storedBytes(storage: Storage, key: string): Promise<Uint8Array> {
  const object = await storage.admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
  return object.Body!.transformToByteArray();
}

async function isStored(storage: Storage, key: string): Promise<boolean> {
  try {
    await storage.admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/** Progress as the POST must show it: never the whole file before the 201, the whole file last. */
function expectHonestProgress(run: PageRun, size: number) {
  expect(run.progress.at(-1)).toBe(size);
  expect(Math.max(0, ...run.progress.slice(0, -1)), `progress: ${run.progress.join(', ')}`).toBeLessThan(size);
}

const STORAGES = connection ? ['local-s3', 'radosgw'] : ['local-s3'];
// One browser per engine for both storages: a WebKit launch takes seconds.
describe.each(ENGINES)('presigned POST from %s', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
    page = await browser.newPage();
    await page.goto(origin);
    // The module script runs after `load` in some engines: wait for it (bounded).
    for (let waited = 0; !(await page.evaluate(() => 'upbeam' in window, undefined)); waited += 100) {
      if (waited > 15_000) throw new Error(`${engine}: the client did not load`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  describe.each(STORAGES)('to %s', (storageName) => {
    let storage: Storage;
    let n = 0;
    /** A fresh file name for each upload of this block. */
    const fresh = (ext = 'bin') => `${engine}-${storageName}-${++n}.${ext}`;

    beforeAll(() => {
      storage = storages.get(storageName)!;
    });
    afterAll(() => storage?.throttle.release());

    it('one form POST stores the file byte-identical; progress counts its bytes, 100 % on the 201; the hook answers serverData', async () => {
      const name = fresh();
      storage.faults.reset();
      storage.throttle.setBytesPerSecond(BYTES_PER_SECOND);
      const before = calls.length;
      await start(page, storageName, name, SIZE, { route: 'files' });
      const run = await runOf(page, name);
      storage.throttle.setBytesPerSecond(Infinity);
      expect(run.failure).toBeUndefined();
      const { key, url, serverData } = run.result!;
      expect(url).toBe(`${storage.throttle.url}/${storage.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`);
      expect(sha256(await storedBytes(storage, key))).toBe(sha256(bytesOf(SIZE)));
      expect(storage.faults.requests().filter(isFormPost)).toHaveLength(1);
      // No PUT of the object (the handler's own requests, its completion marker, go the same way).
      expect(storage.faults.requests().filter((request) => request.method === 'PUT' && request.path === new URL(url).pathname)).toHaveLength(0);
      expectHonestProgress(run, SIZE);
      expect(new Set(run.progress).size, `progress: ${run.progress.join(', ')}`).toBeGreaterThan(2);
      expect(calls.slice(before)).toEqual([{ key, size: SIZE }]);
      expect(serverData).toEqual({ stored: key, size: SIZE });
    });

    it("a route binds the type: a PNG to `images` is stored as image/png; another type is refused before storage", async () => {
      const png = fresh('png');
      await start(page, storageName, png, 70_000, { route: 'images', type: 'image/png' });
      const run = await runOf(page, png);
      expect(run.failure).toBeUndefined();
      const head = await storage.admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: run.result!.key }));
      expect(head).toMatchObject({ ContentType: 'image/png', ContentLength: 70_000 });

      storage.faults.reset();
      const text = fresh('txt');
      await start(page, storageName, text, 5_000, { route: 'images', type: 'text/plain' });
      const refused = await runOf(page, text);
      expect(refused.failure).toMatchObject({ code: 'PREPARE_FAILED', status: 400, answerCode: 'FILE_TYPE_NOT_ALLOWED' });
      expect(storage.faults.requests().filter(isFormPost)).toHaveLength(0);
    });

    it('a file larger than the policy signed is refused by storage (400 EntityTooLarge) once, clearly; nothing is stored', async () => {
      const name = fresh();
      storage.faults.reset();
      await start(page, storageName, name, 2 * SMALL_MAX, { route: 'small' });
      const run = await runOf(page, name);
      expect(run.failure).toEqual({ name: 'UploadClientError', message: OVER_RANGE_MESSAGE, code: 'STORAGE_ERROR', status: 400, answerCode: 'EntityTooLarge' });
      expect(run.retries).toEqual([]);
      expect(storage.faults.requests().filter(isFormPost)).toHaveLength(1);
      expect(await isStored(storage, storage.keys.get(name)!)).toBe(false);
    });

    it('a cancel mid-body rejects with AbortError, progress falls back to 0 and nothing is stored', async () => {
      const name = fresh();
      storage.faults.reset();
      // The proxy holds the body until the cancel has landed: the POST cannot end first.
      storage.throttle.hold();
      let run: PageRun;
      try {
        const formPosts = () => storage.throttle.requests.filter((request) => request.method === 'POST' && request.path === `/${storage.bucket}`).length;
        const before = formPosts();
        await start(page, storageName, name, SIZE, { route: 'plain' });
        // This upload's form POST reached the proxy (its bytes held there).
        const posted = () => formPosts() > before;
        for (const deadline = Date.now() + 15_000; !posted() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(posted()).toBe(true);
        await cancel(page, name);
        run = await runOf(page, name);
      } finally {
        storage.throttle.release();
      }
      expect(run.failure).toMatchObject({ name: 'AbortError', message: 'Upload aborted.' });
      expect(run.progress.at(-1) ?? 0).toBe(0);
      // Storage may take a moment to drop the cut-off body: it never stores it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await isStored(storage, storage.keys.get(name)!)).toBe(false);
    });

    it.runIf(storageName === 'radosgw')('radosgw without the bucket policy: a presigned single upload is answered with a POST form and POSTed', async () => {
      const open = storages.get('radosgw-open')!;
      const name = fresh();
      await start(page, 'radosgw-open', name, 300_000, { route: 'files', strategy: 'presigned' });
      const run = await runOf(page, name);
      expect(run.failure).toBeUndefined();
      expect(open.posted.has(name)).toBe(true);
      expect(open.faults.requests().filter((request) => request.method === 'PUT' && request.path.endsWith(`/${name}`))).toHaveLength(0);
      expect(sha256(await storedBytes(open, run.result!.key))).toBe(sha256(bytesOf(300_000)));
      expect(run.result!.serverData).toEqual({ stored: run.result!.key, size: 300_000 });
    });

    it('a connection reset mid-body is sent again: progress falls back to 0, the retry stores the same bytes', async () => {
      const name = fresh();
      storage.faults.reset();
      storage.faults.inject('reset', isFormPost);
      await start(page, storageName, name, SIZE, { route: 'files' });
      const run = await runOf(page, name);
      expect(run.failure).toBeUndefined();
      expect(run.retries).toEqual(['NETWORK_ERROR']);
      expect(storage.faults.injected().reset).toBe(1);
      expect(storage.faults.requests().filter(isFormPost)).toHaveLength(2);
      expect(sha256(await storedBytes(storage, run.result!.key))).toBe(sha256(bytesOf(SIZE)));
      expectHonestProgress(run, SIZE);
    });
  });
});
