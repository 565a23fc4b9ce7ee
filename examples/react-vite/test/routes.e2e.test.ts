import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createTestBucket, createUploadRole, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { startLocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler, defineRoute, defineRoutes, type UploadHandler } from '@upbeam/upload-server';
import { Hono } from 'hono';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// One endpoint with two routes, from real browsers (chromium, Firefox, WebKit) against s3rver and Ceph
// radosgw on another origin: the page runs `@upbeam/upload-client`'s built ESM. Each route's rules hold
// (storage refuses a PUT of another type or size than its presigned URL signed; the handler refuses what
// breaks the route), the result's `serverData` is the route's hook's (with the context its onBeforeUpload
// returned at preparation, carried in the receipt), a batch over `maxFiles` is refused
// before any request, an unknown route is 404 and the GET of rules is the configuration's public part.

const CLIENT_PACKAGE = fileURLToPath(new URL('../../../packages/upload-client', import.meta.url));
const connection = inject('radosgw');

const routes = defineRoutes({
  avatar: defineRoute({
    allowedContentTypes: ['image/*'],
    maxFileSize: 2000,
    maxFiles: 1,
    keyPrefix: 'avatars/',
    // The context crosses from the preparation to the completion in the receipt the browser carries.
    onBeforeUpload: ({ body }) => ({ userId: `user-of-${body.filename}` }),
    onUploadComplete: ({ key, source, context }) => ({ avatarKey: key, owner: source === 'page' ? context.userId : undefined }),
  }),
  documents: {
    allowedContentTypes: ['application/pdf'],
    maxFileSize: 50_000,
    maxFiles: 3,
    strategies: ['presigned'],
    onUploadComplete: ({ size }) => ({ bytes: size }),
  },
});

const PAGE = '<!doctype html><script type="module">import * as upbeam from "/client/index.js"; window.upbeam = upbeam;</script>';

let server: ServerType;
let origin: string;
let handler: UploadHandler;
/** Preparation requests the endpoint received (POSTs). */
let posts = 0;

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

beforeAll(async () => {
  const chunks = await bundleClient();
  const app = new Hono();
  app.on(['GET', 'POST'], '/api/s3-upload', (c) => {
    if (c.req.method === 'POST') posts += 1;
    return handler(c.req.raw);
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
}, 60_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** Storage and the handler's settings for it (the token strategy's included). */
const storages: { name: string; start(): Promise<{ settings: object; close(): Promise<void> }> }[] = [
  {
    name: 's3rver',
    start: async () => {
      const local = await startLocalS3({ allowedOrigins: [origin] });
      return { settings: { ...local.handlerSettings, stsClient: local.stsClient }, close: () => local.close() };
    },
  },
  ...(connection
    ? [
        {
          name: 'radosgw',
          start: async () => {
            const bucket = await createTestBucket(connection, 'routes-e2e', { allowedOrigins: [origin] });
            const roleArn = await createUploadRole(connection);
            return { settings: tokenHandlerSettings(connection, bucket.bucket, roleArn), close: async () => {} };
          },
        },
      ]
    : []),
];

type Outcome = { ok: true; key: string; serverData?: unknown } | { ok: false; code?: string; status?: number; answerCode?: string; message: string };

/** `uploadFile` in the page with a file made there. */
async function uploadInPage(page: TestPage, file: { name: string; type: string; size: number }, options: Record<string, unknown>): Promise<Outcome> {
  return (await page.evaluate(
    async ([file, options]) => {
      const { uploadFile } = (window as unknown as { upbeam: { uploadFile(file: File, options: object): Promise<{ key: string; serverData?: unknown }> } }).upbeam;
      try {
        const result = await uploadFile(new File([new Uint8Array(file.size)], file.name, { type: file.type }), options);
        return { ok: true as const, key: result.key, serverData: result.serverData };
      } catch (error) {
        const { code, status, answerCode, message } = error as { code?: string; status?: number; answerCode?: string; message: string };
        return { ok: false as const, code, status, answerCode, message };
      }
    },
    [file, options] as const,
  )) as Outcome;
}

describe.each(storages)('two routes on $name', ({ start }) => {
  let close: () => Promise<void>;

  beforeAll(async () => {
    const storage = await start();
    close = storage.close;
    handler = createUploadHandler({ ...storage.settings, routes, onError: () => {} });
  }, 60_000);
  afterAll(async () => close?.());

  describe.each(ENGINES)('in %s', (engine) => {
    let browser: TestBrowser;
    let page: TestPage;

    beforeAll(async () => {
      browser = await launchBrowser(engine);
      page = await browser.newPage();
      await page.goto(origin);
      for (let waited = 0; !(await page.evaluate(() => 'upbeam' in window, undefined)); waited += 100) {
        if (waited > 15_000) throw new Error(`${engine}: the client did not load`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }, 120_000);
    afterAll(async () => {
      await page?.close().catch(() => {});
      await browser?.close();
    });

    it("each route uploads with its own rules; serverData is the route's hook's", async () => {
      const avatar = await uploadInPage(page, { name: 'me.png', type: 'image/png', size: 1500 }, { route: 'avatar' });
      expect(avatar).toMatchObject({ ok: true, serverData: { avatarKey: expect.stringMatching(/^avatars\//), owner: 'user-of-me.png' } });
      const token = await uploadInPage(page, { name: 'me.png', type: 'image/png', size: 1500 }, { route: 'avatar', strategy: 'temporary-token' });
      expect(token).toMatchObject({ ok: true, serverData: { avatarKey: expect.stringMatching(/^avatars\//), owner: 'user-of-me.png' } });
      const documents = await uploadInPage(page, { name: 'a.pdf', type: 'application/pdf', size: 40_000 }, { route: 'documents' });
      expect(documents).toMatchObject({ ok: true, serverData: { bytes: 40_000 } });
      // The handler refuses what breaks the route: a PDF as an avatar, an image as a document, a large avatar.
      expect(await uploadInPage(page, { name: 'a.pdf', type: 'application/pdf', size: 10 }, { route: 'avatar' })).toMatchObject({ ok: false, status: 400 });
      expect(await uploadInPage(page, { name: 'me.png', type: 'image/png', size: 10 }, { route: 'documents' })).toMatchObject({ ok: false, status: 400 });
      expect(await uploadInPage(page, { name: 'me.png', type: 'image/png', size: 2001 }, { route: 'avatar' })).toMatchObject({ ok: false, status: 413 });
    });

    it('storage refuses a PUT of another type or size than the route signed (403)', async () => {
      const statuses = await page.evaluate(async () => {
        const prepare = async () => {
          const response = await fetch('/api/s3-upload', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ route: 'avatar', filename: 'me.png', filetype: 'image/png', filesize: 100, _upload: { strategy: 'presigned' } }),
          });
          return (await response.json()) as { url: string; headers: Record<string, string> };
        };
        const put = async (headers: Record<string, string>, size: number) => {
          const { url, headers: signed } = await prepare();
          try {
            return (await fetch(url, { method: 'PUT', headers: { ...signed, ...headers }, body: new Uint8Array(size) })).status;
          } catch {
            return 0; // a refusal without CORS headers reads as a network error
          }
        };
        return { html: await put({ 'Content-Type': 'text/html' }, 100), larger: await put({}, 5000), tagged: await put({ 'x-amz-tagging': 'a=b' }, 100) };
      }, undefined);
      for (const status of Object.values(statuses)) expect([0, 400, 403]).toContain(status);
    });

    it('a batch over maxFiles is refused before any request; an unknown route is 404; the GET of rules is the public part', async () => {
      const before = posts;
      const batch = await page.evaluate(() => {
        const { UploadTracker } = (window as unknown as { upbeam: { UploadTracker: new (options: object) => { add(files: File[]): unknown } } }).upbeam;
        const tracker = new UploadTracker({ route: 'avatar', maxFiles: 1 });
        try {
          tracker.add([new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.png', { type: 'image/png' })]);
          return 'added';
        } catch (error) {
          return (error as { code: string }).code;
        }
      }, undefined);
      expect(batch).toBe('TOO_MANY_FILES');
      expect(posts).toBe(before);

      expect(await uploadInPage(page, { name: 'v.mp4', type: 'video/mp4', size: 10 }, { route: 'videos' })).toMatchObject({
        ok: false,
        code: 'PREPARE_FAILED',
        status: 404,
        answerCode: 'UNKNOWN_ROUTE',
      });

      const rules = await page.evaluate(() => (window as unknown as { upbeam: { fetchRouteRules(route: string): Promise<unknown> } }).upbeam.fetchRouteRules('documents'), undefined);
      expect(rules).toEqual({ allowedContentTypes: ['application/pdf'], maxFileSize: 50_000, maxFiles: 3, strategies: ['presigned'] });
    });
  });
});
