import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { serve, type ServerType } from '@hono/node-server';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler, type UploadCompleteContext, type UploadHandler } from '@upbeam/upload-server';
import { Hono } from 'hono';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// onUploadComplete from real browsers (chromium, Firefox, WebKit): the page runs `uploadFile` of
// @upbeam/upload-client (its built ESM, as published), its server the upload handler with a completion
// hook, storage the embedded s3rver on another origin. The hook must run once per upload with the values
// storage holds, its answer must reach the page's result as `serverData`, and a completion forged for
// another key must be refused.

const CLIENT_PACKAGE = fileURLToPath(new URL('../../../packages/upload-client', import.meta.url));
const MiB = 1024 * 1024;

let server: ServerType;
let origin: string;
let storage: LocalS3;
let admin: S3Client;
let handler: UploadHandler;
/** Every call of the hook, without its request. */
const calls: Omit<UploadCompleteContext, 'request'>[] = [];

/** The page: the client's built ESM (as published), bundled with its dependencies by Vite as an app would. */
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

beforeAll(async () => {
  const chunks = await bundleClient();
  const app = new Hono();
  app.post('/api/s3-upload', (c) => handler(c.req.raw));
  app.get('/client/:name', (c) => {
    const code = chunks.get(c.req.param('name'));
    return code === undefined ? c.notFound() : c.body(code, 200, { 'content-type': 'text/javascript' });
  });
  app.get('/', (c) => c.html(PAGE));
  server = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  storage = await startLocalS3({ allowedOrigins: [origin] });
  admin = storage.createClient();
  handler = createUploadHandler({
    ...storage.handlerSettings,
    stsClient: storage.stsClient,
    onUploadComplete: ({ request: _request, ...context }) => {
      calls.push(context);
      return { photoId: `photo-${calls.length}`, size: context.size };
    },
  });
}, 60_000);

afterAll(async () => {
  admin?.destroy();
  await storage?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

interface PageResult {
  url: string;
  key: string;
  serverData?: { photoId: string; size: number };
}

/** `uploadFile` in the page, of a file of `size` bytes made there, with these options (JSON). */
async function uploadInPage(page: TestPage, size: number, options: Record<string, unknown>): Promise<PageResult> {
  return await page.evaluate(
    async ([size, options]) => {
      type Client = { uploadFile(file: File, options: object): Promise<unknown> };
      const { uploadFile } = (window as unknown as { upbeam: Client }).upbeam;
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);
      const file = new File([bytes], 'photo.jpg', { type: 'image/jpeg' });
      return JSON.parse(JSON.stringify(await uploadFile(file, options))) as PageResult;
    },
    [size, options] as const,
  );
}

async function head(key: string) {
  return admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }));
}

describe.each(ENGINES)('onUploadComplete from %s', (engine) => {
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

  it.each([
    { name: 'presigned single PUT', size: 300 * 1024, options: {} },
    { name: 'presigned multipart', size: 5 * MiB + 4321, options: { multipartThreshold: 5 * MiB } },
    { name: 'temporary-token single PUT', size: 200 * 1024, options: { strategy: 'temporary-token' } },
    { name: 'temporary-token multipart', size: 5 * MiB + 99, options: { strategy: 'temporary-token', multipartThreshold: 5 * MiB } },
  ])('$name: the hook runs once with the stored values; its answer is the result\'s serverData', async ({ size, options }) => {
    const before = calls.length;
    const result = await uploadInPage(page, size, options);
    expect(calls.length).toBe(before + 1);
    const seen = calls.at(-1)!;
    const stored = await head(result.key);
    expect(seen).toMatchObject({ key: result.key, size, etag: stored.ETag, contentType: 'image/jpeg' });
    expect(stored.ContentLength).toBe(size);
    expect(result.serverData).toEqual({ photoId: `photo-${before + 1}`, size });
  });

  it('a completion forged for another key gets 400 and runs no hook', async () => {
    const before = calls.length;
    const answer = await page.evaluate(async () => {
      const post = async (upload: Record<string, unknown>) => {
        const response = await fetch('/api/s3-upload', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ filename: 'photo.jpg', filetype: 'image/jpeg', filesize: 3, _upload: upload }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, string> };
      };
      // Two preparations; the first is stored, then reported with the second's key.
      const mine = await post({ strategy: 'presigned' });
      const other = await post({ strategy: 'presigned' });
      const put = await fetch(mine.body.url!, { method: 'PUT', headers: mine.body.headers as unknown as HeadersInit, body: 'abc' });
      const forged = await post({ strategy: 'presigned', complete: { key: other.body.key, receipt: mine.body.receipt } });
      const madeUp = await post({ strategy: 'presigned', complete: { key: mine.body.key, receipt: `${mine.body.receipt}x` } });
      return { put: put.status, forged, madeUp };
    }, undefined);
    expect(answer.put).toBe(200);
    expect(answer.forged).toEqual({ status: 400, body: { code: 'INVALID_REQUEST', error: 'The upload receipt is not valid for this key.' } });
    expect(answer.madeUp.status).toBe(400);
    expect(calls.length).toBe(before);
  });
});
