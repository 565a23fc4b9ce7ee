import type { AddressInfo } from 'node:net';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { serve, type ServerType } from '@hono/node-server';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from './bundle-page';
import type { ManyFilesPage, RowRender } from './many-files-page';

// Many files through `useS3Upload` in real browsers, to the embedded s3rver: a memoized row renders again
// only when its own file changes (never for another file's progress or status), both for a row given its
// `TrackedFile` and for a row reading it with `useTrackedFile`; and every row's last render shows its file
// stored, however the tracker batches its notifications (once per animation frame).

const FILES = 8;
const FILE_BYTES = 256 * 1024;
const PREPARE_DELAY_MS = 300;

let server: ServerType;
let origin: string;
let storage: LocalS3;
let admin: S3Client;
let handler: UploadHandler;

const HTML = '<!doctype html><html lang="en"><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';

beforeAll(async () => {
  const code = await bundlePage(new URL('./many-files-page.tsx', import.meta.url));
  const app = new Hono();
  // Each preparation answered PREPARE_DELAY_MS late: the files are stored one after another over a few seconds, so
  // that the list draws the others' progress several times after the first file is stored (a fast engine would
  // otherwise store all eight within a frame or two, and a memoized row would have nothing to skip).
  app.post('/api/s3-upload', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, PREPARE_DELAY_MS));
    return handler(c.req.raw);
  });
  app.get('/page.js', (c) => c.body(code, 200, { 'content-type': 'text/javascript' }));
  app.get('/', (c) => c.html(HTML));
  server = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  storage = await startLocalS3({ allowedOrigins: [origin] });
  admin = storage.createClient();
  handler = createUploadHandler({ ...storage.handlerSettings, stsClient: storage.stsClient });
}, 60_000);

afterAll(async () => {
  admin?.destroy();
  await storage?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** Whether two renders of a row drew the same thing (a render its own file did not cause). */
const same = (a: RowRender, b: RowRender) => a.status === b.status && a.uploaded === b.uploaded;

describe.each(ENGINES)('many files through useS3Upload in %s', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a memoized row renders only for its own file, and its last render shows the file stored', async () => {
    await page.goto(origin);
    await expect.poll(() => page.evaluate(() => window.manyFiles.listRenders, null)).toBeGreaterThan(0);
    const before = await page.evaluate(() => ({ renders: window.manyFiles.listRenders, frames: window.manyFiles.frames }), null);
    const ids = await page.evaluate(([count, bytes]) => window.manyFiles.add(count, bytes), [FILES, FILE_BYTES] as const);
    expect(ids).toHaveLength(FILES);
    await expect
      .poll(() => page.evaluate(() => window.manyFiles.count.done ?? 0, null), { timeout: 60_000 })
      .toBe(FILES);
    // The list's render reads the tracker when it runs, so its totals may show every file stored a paced pause
    // (at most a second) before the rows that read their own file have heard of the last change.
    await expect
      .poll(
        () =>
          page.evaluate(
            () => [window.manyFiles.fileRows, window.manyFiles.idRows].every((rows) => Object.values(rows).every((renders) => renders.at(-1)?.status === 'done')),
            null,
          ),
        { timeout: 5_000 },
      )
      .toBe(true);
    const seen = await page.evaluate(() => JSON.parse(JSON.stringify(window.manyFiles)) as ManyFilesPage, null);

    for (const rows of [seen.fileRows, seen.idRows]) {
      expect(Object.keys(rows).sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const renders = rows[id]!;
        // Every render after the first drew a change of this file: none came from another file's progress.
        for (let index = 1; index < renders.length; index += 1) expect(same(renders[index - 1]!, renders[index]!)).toBe(false);
        expect(renders.at(-1)).toEqual({ status: 'done', uploaded: FILE_BYTES });
      }
    }
    // A memoized row does not follow the list: the list committed again after the first file was stored (the
    // others' progress), and a commit of the first file's rows for it would have drawn the same thing twice in a
    // row, which the loop above refuses. (The list's renders are not compared with a row's: a slow engine's are
    // paced down to a few for the whole batch, WebKit under xvfb in CI 3, as many as a row's.)
    expect(seen.listCommitsAfterFirstDone).toBeGreaterThanOrEqual(2);
    // The tracker notifies at most once per animation frame (one more for a frame the last poll did not see),
    // less often when rendering is slow: how many times the list renders depends on the machine.
    expect(seen.listRenders - before.renders).toBeLessThanOrEqual(seen.frames - before.frames + 1);

    const texts = await page.evaluate(() => [...document.querySelectorAll('#file-rows li')].map((row) => row.textContent ?? ''), null);
    expect(texts).toHaveLength(FILES);
    for (const text of texts) expect(text).toMatch(/done$/);
    expect(seen.keys).toHaveLength(FILES);
    for (const key of seen.keys) {
      expect((await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }))).ContentLength).toBe(FILE_BYTES);
    }
  });
});
