import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HeadObjectCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { createUploadHandler } from '@upbeam/upload-server';
import { launchChromiumContext, type ChromiumContext } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The lead-in of a presigned multipart upload (issue 47): `uploadFile` asks the endpoint to create the upload
// while the multipart chunk loads, not once it has loaded. The page server holds the chunk's request until the
// create has arrived (at most HOLD_MS): the create comes while the chunk is still held. Real chromium, the
// client bundled with code splitting as an app's bundler does, the real handler and local-s3.

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
/** The longest the chunk is held: a client that waits for the chunk sends its create only after it. */
const HOLD_MS = 10_000;

let storage: LocalS3;
let admin: S3Client;
let browser: ChromiumContext;
let page: Server;
let origin: string;
let bundleDir: string;
/**
 * What the page server saw, in order: `chunk requested`, `create` (the multipart create reached the endpoint),
 * `chunk released`.
 */
let events: string[] = [];
/** Releases the held chunk (the create arrived, or the test lets it go). */
let releaseChunk: () => void = () => {};
/** Resolves once the chunk has been asked for. */
let chunkRequested: Promise<void>;
let chunkAskedFor: () => void = () => {};
const expectChunk = () => (chunkRequested = new Promise((resolve) => (chunkAskedFor = resolve)));
/** When set, the multipart chunk's request is answered 404 (a deploy that removed it) once the create arrived. */
let failChunk = false;

beforeAll(async () => {
  storage = await startLocalS3();
  admin = new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
  });
  const handler = createUploadHandler(storage.handlerSettings);
  bundleDir = await mkdtemp(join(tmpdir(), 'upbeam-create-ahead-'));
  // The client as an app's bundler splits it: the multipart engine in a chunk of its own, loaded with import().
  const entry = join(bundleDir, 'entry.ts');
  await import('node:fs/promises').then(({ writeFile }) => writeFile(entry, `import { uploadFile } from ${JSON.stringify(join(PACKAGE, 'src', 'index.ts'))};\nObject.assign(window, { uploadFile });\n`));
  execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--splitting', '--format=esm', '--platform=browser', `--outdir=${join(bundleDir, 'out')}`, '--entry-names=entry', '--log-level=warning'], {
    cwd: PACKAGE,
  });
  page = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/api/upload') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const body = Buffer.concat(chunks);
        const action = (JSON.parse(body.toString()) as { _upload?: { multipart?: { action?: string } } })._upload?.multipart?.action;
        if (action === 'create') {
          events.push('create');
          releaseChunk();
        }
        if (action === 'abort') events.push('abort');
        const answer = await handler(new Request(`${origin}/api/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
      return;
    }
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/entry.js"></script>');
      return;
    }
    const send = () =>
      readFile(join(bundleDir, 'out', path)).then(
        (bytes) => response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(bytes),
        () => response.writeHead(404).end(),
      );
    if (!path.startsWith('/presigned-multipart-')) return void send();
    // The multipart chunk: held until the create has arrived (or the test lets it go), or HOLD_MS.
    events.push('chunk requested');
    chunkAskedFor();
    const released = new Promise<void>((resolve) => {
      releaseChunk = resolve;
      if (events.includes('create')) resolve();
    });
    void Promise.race([released, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]).then(() => {
      events.push('chunk released');
      return failChunk ? void response.writeHead(404).end() : send();
    });
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launchChromiumContext();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  page?.close();
  admin?.destroy();
  await storage?.close();
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
});

describe('a presigned multipart upload in chromium', () => {
  it('asks the endpoint to create the upload while the multipart chunk loads, then stores the file', async () => {
    events = [];
    const tab = await browser.context.newPage();
    try {
      await tab.goto(`${origin}/`);
      await tab.waitForFunction(() => typeof (window as unknown as { uploadFile?: unknown }).uploadFile === 'function');
      const { url, size } = await tab.evaluate(async (bytes) => {
        const file = new File([new Uint8Array(bytes)], 'lead-in.bin', { type: 'application/octet-stream' });
        const { uploadFile } = window as unknown as { uploadFile: (file: File, options: object) => Promise<{ url: string }> };
        const result = await uploadFile(file, { endpoint: { url: '/api/upload' }, multipartThreshold: 5 * 1024 * 1024 });
        return { url: result.url, size: file.size };
      }, 6 * MiB);
      expect(events.filter((event) => event !== 'chunk requested')).toEqual(['create', 'chunk released']);
      const key = decodeURIComponent(new URL(url).pathname.split('/').slice(2).join('/'));
      const stored = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }));
      expect(stored.ContentLength).toBe(size);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('sends nothing ahead for options the multipart engine refuses: INVALID_OPTIONS before any request', async () => {
    events = [];
    expectChunk();
    const tab = await browser.context.newPage();
    try {
      await tab.goto(`${origin}/`);
      await tab.waitForFunction(() => typeof (window as unknown as { uploadFile?: unknown }).uploadFile === 'function');
      const outcome = tab.evaluate(async (bytes) => {
        const file = new File([new Uint8Array(bytes)], 'refused.bin');
        const { uploadFile } = window as unknown as { uploadFile: (file: File, options: object) => Promise<unknown> };
        return uploadFile(file, { endpoint: { url: '/api/upload' }, multipartThreshold: 5 * 1024 * 1024, queueSize: 0 }).then(
          () => 'stored',
          (error: { code?: string }) => error.code,
        );
      }, 6 * MiB);
      await chunkRequested;
      releaseChunk();
      expect(await outcome).toBe('INVALID_OPTIONS');
      expect(events).toEqual(['chunk requested', 'chunk released']);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('aborts the upload it created ahead when the multipart chunk fails to load: nothing left on storage', async () => {
    events = [];
    failChunk = true;
    const tab = await browser.context.newPage();
    try {
      await tab.goto(`${origin}/`);
      await tab.waitForFunction(() => typeof (window as unknown as { uploadFile?: unknown }).uploadFile === 'function');
      const outcome = await tab.evaluate(async (bytes) => {
        const file = new File([new Uint8Array(bytes)], 'chunk-gone.bin');
        const { uploadFile } = window as unknown as { uploadFile: (file: File, options: object) => Promise<unknown> };
        return uploadFile(file, { endpoint: { url: '/api/upload' }, multipartThreshold: 5 * 1024 * 1024 }).then(
          () => 'stored',
          () => 'failed',
        );
      }, 6 * MiB);
      expect(outcome).toBe('failed');
      expect(events.filter((event) => event !== 'chunk requested')).toEqual(['create', 'chunk released', 'abort']);
      const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket }));
      expect(Uploads.filter((upload) => upload.Key?.includes('chunk-gone'))).toEqual([]);
    } finally {
      failChunk = false;
      await tab.close();
    }
  }, 60_000);
});
