import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import {
  ENGINES,
  launchBrowser,
  openExamplePage,
  progressRenderBudget,
  startThrottleProxy,
  UPLOADER_SELECTORS as SELECTORS,
  type ExamplePage,
  type TestBrowser,
  type ThrottleProxy,
} from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Next.js example as a user runs it after `pnpm build` with a bucket of their own: `pnpm start`
// (scripts/with-local-s3.ts, which then runs `next start` as is) as a child process, with S3_UPLOAD_*
// settings that name an S3-compatible server this test starts (s3rver and an STS stand-in), reached through
// a throttling proxy so that uploads take a few seconds in every engine. The page runs in chromium, Firefox
// and WebKit; the bytes are read back from storage. Storage listens on another port than the page, so the
// upload is cross-origin and the bucket's CORS rule is exercised. Both routes are served by `next start`:
// the App Router's app/api/s3-upload/route.ts and the Pages Router's pages/api/pages-router/s3-upload.ts.
// The page is `<Uploader>` from @upbeam/upload-react/components: the tests read its parts (`data-upbeam`).

const appDir = fileURLToPath(new URL('..', import.meta.url));
/**
 * Bytes of the test file. Loopback socket buffers take about 4 MiB the moment a request starts, and WebKit counts
 * them as sent: an 8 MiB file read 0 then 100 and nothing between in 2 of 3 runs (2026-11-28), so 16 MiB.
 */
const FILE_SIZE = 16 * 1024 * 1024 + 123;
/** Upload bandwidth through the proxy, bytes per second: ~4 s for the file. */
const UPLOAD_BYTES_PER_SECOND = 4 * 1024 * 1024;
const READY_TIMEOUT_MS = 60_000;
const PAGES_ROUTE = '/api/pages-router/s3-upload';
const PAGES_ROUTE_RADIO = `input[name="route"][value="${PAGES_ROUTE}"]`;
const APP_ROUTE_RADIO = 'input[name="route"][value="/api/s3-upload"]';

let app: ChildProcess | undefined;
let output = '';
let origin: string;
let storage: LocalS3;
let proxy: ThrottleProxy;
let s3: S3Client;
let workDir: string;
let filePath: string;
let fileBytes: Buffer;

/** A port that was free a moment ago on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitUntilServing(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (app?.exitCode !== null || app.signalCode !== null) throw new Error(`the app exited:\n${output}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the app did not answer within ${READY_TIMEOUT_MS} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops the app's process group (the wrapper and `next start` in it) by its id. */
async function stopApp(): Promise<void> {
  const child = app;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

beforeAll(async () => {
  if (!existsSync(join(appDir, '.next', 'BUILD_ID'))) {
    throw new Error('examples/next-app is not built: run `pnpm run build` first (this test starts the built app).');
  }
  workDir = await mkdtemp(join(tmpdir(), 'upbeam-next-e2e-'));
  fileBytes = randomBytes(FILE_SIZE);
  filePath = join(workDir, 'holiday video.bin');
  await writeFile(filePath, fileBytes);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  storage = await startLocalS3({ allowedOrigins: [origin], directory: join(workDir, 's3') });
  proxy = await startThrottleProxy(storage.endpoint, UPLOAD_BYTES_PER_SECOND);
  s3 = storage.createClient();
  app = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/with-local-s3.ts', 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: appDir,
      // Its own process group, so that teardown stops `next start` too, by the group's id.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Set in the environment, they win over a developer's .env.local (Next.js's loader keeps variables
      // already set).
      env: {
        ...process.env,
        ...storage.env,
        S3_UPLOAD_ENDPOINT: proxy.url,
        S3_UPLOAD_FORCE_PATH_STYLE: 'true',
        // The STS stand-in answers on the storage's own port (not through the throttle).
        S3_UPLOAD_STS_ENDPOINT: storage.endpoint,
      },
    },
  );
  app.stdout!.on('data', (part: Buffer) => (output += part.toString()));
  app.stderr!.on('data', (part: Buffer) => (output += part.toString()));
  await waitUntilServing(origin);
});

afterAll(async () => {
  s3?.destroy();
  await stopApp();
  await proxy?.close();
  await storage?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storedBytes(key: string): Promise<Uint8Array> {
  const object = await s3.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
  return object.Body!.transformToByteArray();
}

/** The object key of the page's object URL, `{proxy}/{bucket}/{key}`. */
async function keyOnPage(page: ExamplePage): Promise<string> {
  const url = await page.text(SELECTORS.objectUrl);
  const prefix = `${proxy.url}/${storage.bucket}/`;
  expect(url?.startsWith(prefix), String(url)).toBe(true);
  return decodeURIComponent(url!.slice(prefix.length));
}

describe('Next.js example (next start): the Pages Router route', () => {
  const post = (body: string) =>
    fetch(`${origin}${PAGES_ROUTE}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('prepares a presigned upload like the App Router route', async () => {
    const response = await post(JSON.stringify({ filename: 'photo.jpg', filetype: 'image/jpeg', _upload: { strategy: 'presigned' } }));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { key: string; url: string };
    expect(answer.key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/photo\.jpg$/);
    expect(answer.url.startsWith(`${proxy.url}/${storage.bucket}/`)).toBe(true);
  });

  it('reads the body itself (config: bodyParser false): a body over 16 KiB gets the handler\'s JSON 413', async () => {
    const response = await post(JSON.stringify({ filename: 'a.bin', filetype: 'application/octet-stream', _upload: { strategy: 'presigned' }, pad: 'x'.repeat(20_000) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers 405 to another method than POST', async () => {
    expect((await fetch(`${origin}${PAGES_ROUTE}`)).status).toBe(405);
  });
});

describe.each(ENGINES)('Next.js example (next start) in %s', (engine) => {
  let browser: TestBrowser;
  let page: ExamplePage | undefined;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  async function open(): Promise<ExamplePage> {
    await page?.close();
    page = await openExamplePage(browser, origin, SELECTORS.fileInput);
    return page;
  }

  it('offers both strategies and both routes, presigned and the App Router first', async () => {
    const page = await open();
    expect(await page.isChecked(SELECTORS.presigned)).toBe(true);
    expect(await page.isChecked(SELECTORS.temporaryToken)).toBe(false);
    expect(await page.isChecked(APP_ROUTE_RADIO)).toBe(true);
    expect(await page.isChecked(PAGES_ROUTE_RADIO)).toBe(false);
  });

  it('presigned: a file picked on the page climbs to 100% and storage holds the same bytes', async () => {
    const page = await open();
    const started = Date.now();
    await page.setInputFile(SELECTORS.fileInput, filePath);
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
    const elapsedMs = Date.now() - started;

    const seen = await page.progressSeen();
    expect(seen.filter((value) => value > 0 && value < 100).length, `progress: ${seen.join(', ')}`).toBeGreaterThanOrEqual(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(await page.attribute(SELECTORS.progressBar, 'value')).toBe('100');

    const key = await keyOnPage(page);
    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-video\.bin$/);
    const stored = await storedBytes(key);
    expect(stored.byteLength).toBe(FILE_SIZE);
    expect(sha256(stored)).toBe(sha256(fileBytes));
    // PENDING the progress throttle in @upbeam/upload-client (issue "every browser engine", point 3): fails
    // in WebKit until it lands (one render per 8 KiB). Soft: the checks above still count.
    expect.soft(seen.length, `progress renders in ${elapsedMs} ms`).toBeLessThanOrEqual(progressRenderBudget(elapsedMs));
  });

  it('temporary-token: the same file in parts through the STS stand-in, same bytes', async () => {
    const page = await open();
    await page.click(SELECTORS.temporaryToken);
    const sent = proxy.requests.length;
    await page.setInputFile(SELECTORS.fileInput, filePath);
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
    expect((await page.progressSeen()).at(-1)).toBe(100);
    expect(proxy.requests.slice(sent).filter((request) => request.method === 'PUT' && request.path.includes('partNumber=')).length).toBeGreaterThanOrEqual(1);
    expect(sha256(await storedBytes(await keyOnPage(page)))).toBe(sha256(fileBytes));
  });

  it('presigned through the Pages Router route (createPagesHandler): same bytes', async () => {
    const page = await open();
    await page.click(PAGES_ROUTE_RADIO);
    expect(await page.isChecked(PAGES_ROUTE_RADIO)).toBe(true);
    await page.setInputFile(SELECTORS.fileInput, filePath);
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
    expect(sha256(await storedBytes(await keyOnPage(page)))).toBe(sha256(fileBytes));
  });
});
