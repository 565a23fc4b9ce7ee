import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { startExample, type RunningExample } from '@upbeam/example-shared/example-server';
import { ENGINES, launchBrowser, startThrottleProxy, type TestBrowser, type TestPage, type ThrottleProxy } from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandlerConfig } from '@upbeam/upload-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from './bundle-page';

// Background uploads (issue 45 item 2): a tracker with `background: true` on the presigned-post strategy hands each
// file to Background Fetch in chromium (the upload goes on after the page is closed, the service worker sends the
// completion report, the page lists it when opened again); Firefox and WebKit have no Background Fetch: the same
// upload runs in the page and the summary says `unavailable`. Real local-s3 behind the throttling proxy (held while
// the page closes, so that the upload cannot end first), the real handler in Node, the package's built worker.

const KiB = 1024;
const MiB = 1024 * KiB;

interface FileView {
  id: string;
  name: string;
  status: string;
  background?: string;
  restored: boolean;
  uploaded: number;
  size: number;
  url?: string;
  serverData?: unknown;
  error?: string;
}

interface PageApi {
  add(name: string, size: number): string;
  cancel(id: string): void;
  files(): FileView[];
  availability(): string | undefined;
}

declare const upbeam: PageApi;

/** The bytes the page makes (`background-page.ts`), to compare with what storage holds. */
function pattern(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + (i >>> 13)) & 255;
  return bytes;
}
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let dir: string;
let example: RunningExample;
let throttle: ThrottleProxy;
let settings: UploadHandlerConfig;
/** Keys the completion hook ran for, once per run. */
let completed: string[] = [];
/** Holds storage's request bodies once the next preparation is answered ({@link handOver}). */
let holdAfterPreparing = false;
/** Object keys answered to each file name's preparation. */
let keys = new Map<string, string>();

/** The handler of the tests: the completion hook counts, and each preparation's key is noted (`rewrite`: a lying page). */
function useHandler(config: Partial<UploadHandlerConfig> = {}, rewrite?: (body: Record<string, unknown>) => Record<string, unknown>): void {
  const handler = createUploadHandler({
    ...settings,
    ...config,
    onUploadComplete: ({ key }) => {
      completed.push(key);
      return { seen: key };
    },
  } as UploadHandlerConfig);
  example.setUploadHandler(async (request) => {
    const body = (await request.clone().json()) as Record<string, unknown> & { filename: string; _upload: { complete?: unknown } };
    const lying = rewrite && !body._upload.complete;
    const response = await handler(
      lying ? new Request(request.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rewrite(body)) }) : request,
    );
    if (response.ok && !body._upload.complete) {
      keys.set(body.filename, ((await response.clone().json()) as { key: string }).key);
      // Storage is held from here (the handler's own requests of the preparation passed): the POST cannot end.
      if (holdAfterPreparing) throttle.hold();
      holdAfterPreparing = false;
    }
    return response;
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upbeam-background-'));
  await writeFile(join(dir, 'page.js'), await bundlePage(new URL('./background-page.ts', import.meta.url)));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html lang="en"><body><script type="module" src="/page.js"></script></body></html>');
  await writeFile(join(dir, 'blank.html'), '<!doctype html><html lang="en"><body></body></html>');
  // The worker as the package ships it, served at the default path.
  await copyFile(fileURLToPath(import.meta.resolve('@upbeam/upload-client/service-worker.js')), join(dir, 'upbeam-sw.js'));
  example = await startExample(dir);
  throttle = await startThrottleProxy(example.storage.endpoint, Infinity);
  settings = { ...example.settings, endpoint: throttle.url, stsClient: example.storage.stsClient } as UploadHandlerConfig;
}, 120_000);

afterEach(() => {
  throttle?.release();
  throttle?.setBytesPerSecond(Infinity);
  holdAfterPreparing = false;
  completed = [];
  keys = new Map();
});

afterAll(async () => {
  await throttle?.close();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const files = (page: TestPage) => page.evaluate(() => upbeam.files(), undefined);
const fileNamed = async (page: TestPage, name: string) => (await files(page)).find((file) => file.name === name);

/** The stored object's bytes, or `undefined` when there is none. */
async function stored(key: string): Promise<Buffer | undefined> {
  try {
    const object = await example.s3.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key }));
    return Buffer.from(await object.Body!.transformToByteArray());
  } catch {
    return undefined;
  }
}

async function absent(key: string): Promise<boolean> {
  try {
    await example.s3.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }));
    return false;
  } catch {
    return true;
  }
}

/** Opens the page and waits for it to be ready. */
async function openPage(browser: TestBrowser): Promise<TestPage> {
  const page = await browser.newPage();
  await page.goto(`${example.origin}/`);
  await expect.poll(() => page.evaluate(() => typeof (window as { upbeam?: unknown }).upbeam, undefined)).toBe('object');
  return page;
}

/** Adds a file, holds storage once it is prepared, and waits until the browser has it (`background: 'running'`, its POST at storage). */
async function handOver(page: TestPage, name: string, size: number): Promise<string> {
  holdAfterPreparing = true;
  const id = await page.evaluate(([n, s]) => upbeam.add(n, s), [name, size] as const);
  await expect.poll(async () => (await fileNamed(page, name))?.background).toBe('running');
  await expect.poll(() => throttle.requests.some((request) => request.method === 'POST')).toBe(true);
  return id;
}

describe.runIf(ENGINES.includes('chromium'))('background uploads in chromium (Background Fetch)', () => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser('chromium');
    // A blank tab stays open, as a user's other tabs: the browser keeps running when the page is closed.
    await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('goes on after the page is closed: stored byte-identical, onUploadComplete once, listed done on return', async () => {
    useHandler();
    const size = 64 * MiB;
    const page = await openPage(browser);
    expect(await page.evaluate(() => upbeam.availability(), undefined)).toBe('available');
    await handOver(page, 'big.bin', size);
    await page.close();
    throttle.release();
    const key = keys.get('big.bin')!;
    await expect.poll(() => completed.length, { timeout: 60_000 }).toBe(1);
    expect(completed).toEqual([key]);
    const bytes = await stored(key);
    expect(bytes?.length).toBe(size);
    expect(sha256(bytes!)).toBe(sha256(pattern(size)));

    const again = await openPage(browser);
    await expect.poll(() => fileNamed(again, 'big.bin')).toMatchObject({ status: 'done', background: 'done', restored: true, size, serverData: { seen: key } });
    // Listed once: the record is gone, a later visit lists nothing; the hook never ran again.
    await again.close();
    const third = await openPage(browser);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await files(third)).toEqual([]);
    expect(completed).toEqual([key]);
    await third.close();
  });

  it('with the page open: progress from the browser, done with the hook answer, the completion sent once by the worker', async () => {
    useHandler();
    const size = 8 * MiB + 3;
    const page = await openPage(browser);
    throttle.setBytesPerSecond(4 * MiB);
    await page.evaluate(([n, s]) => upbeam.add(n, s), ['open.bin', size] as const);
    // Progress while the browser sends it (the last byte held until the worker reports it stored).
    await expect.poll(async () => (await fileNamed(page, 'open.bin'))?.uploaded ?? 0).toBeGreaterThan(0);
    const key = keys.get('open.bin')!;
    await expect.poll(() => fileNamed(page, 'open.bin'), { timeout: 30_000 }).toMatchObject({ status: 'done', background: 'done', uploaded: size, serverData: { seen: key } });
    expect(completed).toEqual([key]);
    expect(sha256((await stored(key))!)).toBe(sha256(pattern(size)));
    await page.close();
  });

  it('a POST storage refuses (the file over the signed range) is listed failed on return', async () => {
    // The page lies about the size (1 MiB declared, 8 MiB sent): the policy's content-length-range is the route's
    // 4 MiB, which storage enforces.
    useHandler({ maxFileSize: 4 * MiB }, (body) => ({ ...body, filesize: MiB }));
    const page = await openPage(browser);
    await handOver(page, 'too-big.bin', 8 * MiB);
    await page.close();
    throttle.release();
    const again = await openPage(browser);
    await expect.poll(() => fileNamed(again, 'too-big.bin'), { timeout: 30_000 }).toMatchObject({ status: 'error', background: 'failed', restored: true });
    expect((await fileNamed(again, 'too-big.bin'))!.error).toMatch(/Storage refused the upload \(400/);
    expect(await absent(keys.get('too-big.bin')!)).toBe(true);
    expect(completed).toEqual([]);
    await again.close();
  });
});

// Its own browser: in this test, Debian's chromium 156 (headless) crashes (the browser process ends on SIGSEGV, seen
// with DEBUG=pw:browser) about a second after `abort()` of the running upload Background Fetch, with or without the
// worker's `backgroundfetchabort` listener, the form as FormData's Blob or as one built by hand; a one-off script with
// the same steps kept it running: not explained. Nothing is stored either way.
describe.runIf(ENGINES.includes('chromium'))('a background upload cancelled in chromium', () => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser('chromium');
    await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
  });

  it('cancelled by the API after the page reopens: nothing stored, no completion', async () => {
    useHandler();
    const page = await openPage(browser);
    throttle.setBytesPerSecond(2 * MiB);
    await handOver(page, 'cancelled.bin', 16 * MiB);
    throttle.release();
    await page.close();
    const again = await openPage(browser);
    await expect.poll(() => fileNamed(again, 'cancelled.bin')).toMatchObject({ status: 'uploading', background: 'running', restored: true });
    const { id } = (await fileNamed(again, 'cancelled.bin'))!;
    await again.evaluate((fileId) => upbeam.cancel(fileId), id);
    await expect.poll(async () => (await fileNamed(again, 'cancelled.bin'))?.status).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await absent(keys.get('cancelled.bin')!)).toBe(true);
    expect(completed).toEqual([]);
  });
});

describe.each(ENGINES.filter((engine) => engine !== 'chromium'))('background: true in %s (no Background Fetch)', (engine) => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs the upload in the page and says unavailable', async () => {
    useHandler();
    const size = 3 * MiB + 5;
    const page = await openPage(browser);
    expect(await page.evaluate(() => upbeam.availability(), undefined)).toBe('unavailable');
    await page.evaluate(([n, s]) => upbeam.add(n, s), ['in-page.bin', size] as const);
    await expect.poll(() => fileNamed(page, 'in-page.bin'), { timeout: 30_000 }).toMatchObject({ status: 'done' });
    const file = (await fileNamed(page, 'in-page.bin'))!;
    expect(file.background ?? 'none').toBe('none');
    const key = keys.get('in-page.bin')!;
    expect(file.serverData).toEqual({ seen: key });
    expect(completed).toEqual([key]);
    expect(sha256((await stored(key))!)).toBe(sha256(pattern(size)));
    await page.close();
  });
});
