import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import {
  ENGINES,
  launchBrowser,
  openExamplePage,
  progressRenderBudget,
  startThrottleProxy,
  type ExamplePage,
  type TestBrowser,
  type ThrottleProxy,
} from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { SELECTORS } from './selectors';

// The whole path in real browsers, chromium, Firefox and WebKit: the example page (built with Vite), its
// Hono server with the upload handler, and the embedded S3-compatible server on another origin, behind a
// throttling proxy so that uploads take a few seconds in every engine.

const FILE_SIZE = 12 * 1024 * 1024 + 321;
/**
 * The temporary-token upload's file, 7 parts of 5 MiB (the last smaller), bytes. Loopback socket buffers take
 * about 4 MiB of each part the moment it is sent, and the browser counts those bytes as sent: the 12 MB file's
 * 3 parts went from 0 to 100 in one progress event in a run of chromium (2026-11-28). With 7 parts, 4 at
 * once, the later parts start as the first are stored, and the bar climbs in steps.
 */
const MULTIPART_FILE_SIZE = 32 * 1024 * 1024 + 321;
/** A file under the temporary-token strategy's multipart threshold (5 MiB): one PutObject, bytes. */
const SINGLE_PUT_FILE_SIZE = 1024 * 1024 + 123;
/** Upload bandwidth through the proxy, bytes per second: ~3 s for the file. */
const UPLOAD_BYTES_PER_SECOND = 4 * 1024 * 1024;

let example: RunningExample;
let proxy: ThrottleProxy;
let fileDir: string;
let filePath: string;
let fileBytes: Buffer;
let multipartPath: string;
let multipartBytes: Buffer;
let singlePutPath: string;
let singlePutBytes: Buffer;
/** The default handler, with storage reached through the proxy; what every test restores. */
let throughProxy: UploadHandler;
/** Answers of the preparation endpoint, in order. */
const answers: Record<string, unknown>[] = [];

beforeAll(async () => {
  example = await startExample();
  proxy = await startThrottleProxy(example.storage.endpoint, UPLOAD_BYTES_PER_SECOND);
  const handler = createUploadHandler({ ...example.settings, endpoint: proxy.url, stsClient: example.storage.stsClient });
  throughProxy = async (request) => {
    const response = await handler(request);
    if (response.ok) answers.push(await response.clone().json());
    return response;
  };
  example.setUploadHandler(throughProxy);
  fileDir = await mkdtemp(join(tmpdir(), 'upbeam-e2e-'));
  fileBytes = randomBytes(FILE_SIZE);
  filePath = join(fileDir, 'holiday video.bin');
  await writeFile(filePath, fileBytes);
  multipartBytes = randomBytes(MULTIPART_FILE_SIZE);
  multipartPath = join(fileDir, 'holiday video 4k.bin');
  await writeFile(multipartPath, multipartBytes);
  singlePutBytes = randomBytes(SINGLE_PUT_FILE_SIZE);
  singlePutPath = join(fileDir, 'receipt.bin');
  await writeFile(singlePutPath, singlePutBytes);
});

afterAll(async () => {
  await proxy?.close();
  await example?.close();
  if (fileDir) await rm(fileDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The next answer of the preparation endpoint, once the page has asked. */
async function nextAnswer(count: number): Promise<Record<string, unknown>> {
  await expect.poll(() => answers.length, { timeout: 30_000 }).toBeGreaterThan(count);
  return answers[count]!;
}

async function storedObject(key: string) {
  const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
  return { object, bytes: await object.Body!.transformToByteArray() };
}

describe.each(ENGINES)('example page in %s, embedded storage', (engine) => {
  let browser: TestBrowser;
  let page: ExamplePage | undefined;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(): Promise<ExamplePage> {
    await page?.close();
    proxy.release();
    page = await openExamplePage(browser, example.origin, SELECTORS.fileInput);
    return page;
  }
  afterAll(async () => {
    await page?.close().catch(() => {});
  });

  it('presigned: a ~12 MB file climbs to 100, storage holds the same bytes', async () => {
    const page = await open();
    const asked = answers.length;
    const started = Date.now();
    await page.setInputFile(SELECTORS.fileInput, filePath);
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
    const elapsedMs = Date.now() - started;
    const { key } = (await nextAnswer(asked)) as { key: string };

    const seen = await page.progressSeen();
    expect(seen.filter((value) => value > 0 && value < 100).length, `progress: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(await page.attribute(SELECTORS.progressBar, 'value')).toBe('100');

    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-video\.bin$/);
    expect(await page.text(SELECTORS.objectUrl)).toBe(`${proxy.url}/${example.storage.bucket}/${key}`);
    const { object, bytes } = await storedObject(key);
    expect(bytes.byteLength).toBe(FILE_SIZE);
    expect(sha256(bytes)).toBe(sha256(fileBytes));
    expect(object.ContentType).toBe('application/octet-stream');
    expect(object.CacheControl).toBe('max-age=630720000');
    // PENDING the progress throttle in @upbeam/upload-client (issue "every browser engine", point 3): fails
    // in WebKit until it lands (~1,500 renders, one per 8 KiB). Soft: the checks above still count.
    expect.soft(seen.length, `progress renders in ${elapsedMs} ms`).toBeLessThanOrEqual(progressRenderBudget(elapsedMs));
  });

  it('presigned: cancel mid-upload rejects with AbortError "Upload aborted." and the file is not stored whole', async () => {
    const page = await open();
    const asked = answers.length;
    // The proxy holds the file's bytes until the cancel has landed: the PUT cannot end before the click.
    proxy.hold();
    await page.setInputFile(SELECTORS.fileInput, filePath);
    const { key } = (await nextAnswer(asked)) as { key: string };
    await expect.poll(async () => Number(await page.attribute(SELECTORS.upload, 'data-progress')), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.click(SELECTORS.cancel);

    await expect.poll(() => page.text(SELECTORS.status)).toBe('Cancelled');
    proxy.release();
    // A user's own cancel is no error: nothing shown in red.
    expect(await page.text(SELECTORS.error)).toBeNull();
    expect(await page.attribute(SELECTORS.upload, 'data-status')).toBe('aborted');
    expect(Number(await page.attribute(SELECTORS.upload, 'data-progress'))).toBeLessThan(100);
    // Real S3 refuses a body shorter than its Content-Length (IncompleteBody) and stores nothing; s3rver
    // keeps what arrived before the connection closed. Either way the whole file must not be there.
    const head = await example.s3
      .send(new HeadObjectCommand({ Bucket: example.storage.bucket, Key: key }))
      .catch((error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode);
    expect(head === 404 || (typeof head === 'object' && head.ContentLength! < FILE_SIZE)).toBe(true);
  });

  it('temporary-token: a ~32 MB file in 5 MiB parts climbs to 100, storage holds the same bytes', async () => {
    const page = await open();
    await page.click(SELECTORS.temporaryToken);
    expect(await page.isChecked(SELECTORS.temporaryToken)).toBe(true);
    const asked = answers.length;
    const sent = proxy.requests.length;
    const started = Date.now();
    await page.setInputFile(SELECTORS.fileInput, multipartPath);
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 90_000 }).toBe('done');
    const elapsedMs = Date.now() - started;
    const { key } = (await nextAnswer(asked)) as { key: string };

    const parts = proxy.requests
      .slice(sent)
      .filter((request) => request.method === 'PUT' && request.path.includes('partNumber='))
      .map((request) => new URL(request.path, proxy.url).searchParams.get('partNumber'));
    expect(new Set(parts)).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7']));
    const seen = await page.progressSeen();
    expect(seen.filter((value) => value > 0 && value < 100).length, `progress: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);

    expect(await page.text(SELECTORS.objectUrl)).toBe(`${proxy.url}/${example.storage.bucket}/${key}`);
    const { object, bytes } = await storedObject(key);
    expect(sha256(bytes)).toBe(sha256(multipartBytes));
    expect(object.ContentType).toBe('application/octet-stream');
    expect(object.CacheControl).toBe('max-age=630720000, public');
    // PENDING the progress throttle in @upbeam/upload-client (issue "every browser engine", point 3): fails
    // in WebKit until it lands (~1,500 renders, one per 8 KiB). Soft: the checks above still count.
    expect.soft(seen.length, `progress renders in ${elapsedMs} ms`).toBeLessThanOrEqual(progressRenderBudget(elapsedMs));
  });

  it('temporary-token: cancel mid-upload rejects with AbortError and aborts the multipart upload', async () => {
    const page = await open();
    await page.click(SELECTORS.temporaryToken);
    const sent = proxy.requests.length;
    // The proxy holds the parts' bytes until the cancel has landed: no part can be stored before the click.
    proxy.hold();
    await page.setInputFile(SELECTORS.fileInput, filePath);
    await expect.poll(async () => Number(await page.attribute(SELECTORS.upload, 'data-progress')), { timeout: 60_000 }).toBeGreaterThan(0);
    // Chromium hands the three parts to the kernel at once and may show 100 long before storage has them: the
    // click then lands after the last byte left the page, before storage answered. Still a cancel.
    // (This test used to click the row's first button, Pause on a multipart row, and failed in chromium for
    // that; it clicks Cancel since the button has its own test id.)
    const clickedAt = proxy.requests.length;
    await page.click(SELECTORS.cancel);
    await expect.poll(() => page.text(SELECTORS.status)).toBe('Cancelled');
    proxy.release();
    // A user's own cancel is no error: nothing shown in red.
    expect(await page.text(SELECTORS.error)).toBeNull();
    expect(await page.attribute(SELECTORS.upload, 'data-status')).toBe('aborted');
    const after = proxy.requests.slice(clickedAt);
    expect(after.filter((request) => request.method === 'POST' && request.path.includes('uploadId=')), 'CompleteMultipartUpload after cancel').toEqual([]);
    // AbortMultipartUpload reaches storage (from the page or the server: both go through the proxy).
    await expect
      .poll(() => proxy.requests.slice(sent).some((request) => request.method === 'DELETE' && request.path.includes('uploadId=')))
      .toBe(true);
  });

  it("temporary-token: choosing the strategy loads its code, and a single PUT's credentials come while it still loads", async () => {
    // A browser of its own: the other tests' pages left the chunk in the HTTP cache, where no hold reaches it.
    const fresh = await launchBrowser(engine);
    // The strategy's lazy chunk (Vite's name for @upbeam/upload-client's temporary-token chunk) is held.
    const chunk = example.holdRequests((path) => /\/assets\/temporary-token-[^/]*\.js$/.test(path));
    try {
      const page = await openExamplePage(fresh, example.origin, SELECTORS.fileInput);
      expect(chunk.held, 'a presigned page loads no token code').toHaveLength(0);
      const asked = answers.length;
      await page.click(SELECTORS.temporaryToken);
      // The hook was given `strategy: 'temporary-token'`: its chunk is asked for before any file is picked.
      await expect.poll(() => chunk.held.length).toBe(1);
      await page.setInputFile(SELECTORS.fileInput, singlePutPath);
      const { key } = (await nextAnswer(asked)) as { key: string };
      // The endpoint answered while the chunk was still held: the credentials do not wait for the code.
      expect(chunk.held).toHaveLength(1);
      chunk.release();
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
      const { bytes } = await storedObject(key);
      expect(sha256(bytes)).toBe(sha256(singlePutBytes));
      const puts = proxy.requests.filter((request) => request.method === 'PUT' && request.path.includes(key));
      expect(puts.map((request) => request.path.includes('partNumber='))).toEqual([false]);
    } finally {
      chunk.release();
      await fresh.close();
    }
  });

  it('tracks a picked file at progress 0 before the preparation request is answered', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    example.setUploadHandler(async (request) => {
      requests += 1;
      await held;
      return throughProxy(request);
    });
    try {
      const page = await open();
      await page.setInputFile(SELECTORS.fileInput, filePath);
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status')).toBe('uploading');
      expect(await page.attribute(SELECTORS.upload, 'data-progress')).toBe('0');
      // Sizes as people read them (powers of 1000, whole numbers from 10): 12,583,233 bytes is 13 MB.
      expect(await page.text(SELECTORS.upload)).toContain('0 B / 13 MB · 0%');
      await expect.poll(() => requests).toBe(1);
      release();
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
    } finally {
      release();
      example.setUploadHandler(throughProxy);
    }
  });

  it('shows the endpoint\'s 500 "Internal Server Error" when the server lacks its settings', async () => {
    const saved = { ...process.env };
    const logged: unknown[] = [];
    for (const name of ['S3_UPLOAD_KEY', 'S3_UPLOAD_SECRET', 'S3_UPLOAD_BUCKET', 'S3_UPLOAD_REGION']) delete process.env[name];
    example.setUploadHandler(createUploadHandler({ onError: (error) => logged.push(error) }));
    try {
      const page = await open();
      await page.setInputFile(SELECTORS.fileInput, filePath);
      await expect.poll(() => page.text(SELECTORS.error)).toBe('Internal Server Error');
      expect(await page.attribute(SELECTORS.upload, 'data-status')).toBe('error');
      expect(String(logged[0])).toContain('Missing ENVs S3_UPLOAD_KEY, S3_UPLOAD_SECRET, S3_UPLOAD_BUCKET, S3_UPLOAD_REGION');
    } finally {
      process.env = saved;
      example.setUploadHandler(throughProxy);
    }
  });
});
