import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListMultipartUploadsCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import { startFaultProxy, type FaultProxy, type S3Request } from '@upbeam/fault-proxy';
import {
  ENGINES,
  launchBrowser,
  openExamplePage,
  startThrottleProxy,
  type ExamplePage,
  type TestBrowser,
  type ThrottleProxy,
} from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { SELECTORS } from './selectors';

// Progress never claims a byte storage did not keep, in chromium, Firefox and WebKit: the example page, its
// server, the embedded storage, and between the browser and storage a throttle (so a cancel lands mid-body)
// and the fault-injection proxy (so a connection drops mid-body). When a request fails or is cancelled its
// bytes leave the file's `uploaded` and the summary: a single PUT falls back to 0, a multipart upload kept for
// resume to the parts storage lists. A retry then reaches 100 % with the same bytes stored.

const MiB = 1024 * 1024;
/** A single PUT: ~2 s through the throttle. */
const SINGLE_SIZE = 12 * MiB + 321;
/** Temporary token, multipart from 5 MiB on the example page: parts of 5, 5, 5 and 3 MiB (+7 bytes). */
const MULTIPART_SIZE = 18 * MiB + 7;
const BYTES_PER_SECOND = 6 * MiB;
/** The page's default attempts per request: a fault queued this often fails the request for good. */
const ATTEMPTS = 3;
const RETRY = SELECTORS.retry;
// The summary renders in the hook's transition, a render after the row (which reads its own file): polled.
const SUMMARY = SELECTORS.summary;
const RESUME = 'label.resume input';

let example: RunningExample;
let faults: FaultProxy;
let throttle: ThrottleProxy;
let dir: string;
const files = new Map<string, Buffer>();

beforeAll(async () => {
  example = await startExample();
  faults = await startFaultProxy({ target: example.storage.endpoint });
  throttle = await startThrottleProxy(faults.url, BYTES_PER_SECOND);
  example.setUploadHandler(createUploadHandler({ ...example.settings, endpoint: throttle.url, stsClient: example.storage.stsClient }));
  dir = await mkdtemp(join(tmpdir(), 'upbeam-honest-progress-'));
  for (const [name, size] of [
    ['single.bin', SINGLE_SIZE],
    ['parts.bin', MULTIPART_SIZE],
  ] as const) {
    const bytes = randomBytes(size);
    files.set(name, bytes);
    await writeFile(join(dir, name), bytes);
  }
});

afterAll(async () => {
  await throttle?.close();
  await faults?.close();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const isPutObject = (request: S3Request) => request.operation === 'PutObject';
const isPart = (partNumber: number) => (request: S3Request) =>
  request.operation === 'UploadPart' && request.query.get('partNumber') === String(partNumber);

/** The row's bytes acknowledged or in flight, from its `data-progress` (percent of `size`). */
async function uploaded(page: ExamplePage, size: number): Promise<number> {
  return Math.round((Number(await page.attribute(SELECTORS.upload, 'data-progress')) * size) / 100);
}

/** Waits for the row to end; expects `done` with the file's bytes stored under the URL it shows. */
async function expectStored(page: ExamplePage, name: string): Promise<void> {
  await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000, interval: 100 }).toBe('done');
  expect(await page.attribute(SELECTORS.upload, 'data-progress')).toBe('100');
  const url = (await page.text(SELECTORS.objectUrl))!;
  const prefix = `${throttle.url}/${example.storage.bucket}/`;
  expect(url.startsWith(prefix), url).toBe(true);
  const key = decodeURIComponent(url.slice(prefix.length));
  const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
  expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(files.get(name)!));
  await expect.poll(() => page.text(SUMMARY)).toMatch(/^1 of 1 file uploaded · 100%/);
}

describe.each(ENGINES)('honest progress in %s', (engine) => {
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
    throttle.release();
    page = await openExamplePage(browser, example.origin, SELECTORS.fileInput);
    return page;
  }

  it('a single PUT whose connection drops mid-body falls back to 0 and counts as failed; its retry stores the same bytes', async () => {
    const page = await open();
    faults.reset();
    for (let i = 0; i < ATTEMPTS; i++) faults.inject('reset', isPutObject);
    await page.setInputFile(SELECTORS.fileInput, join(dir, 'single.bin'));
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000, interval: 100 }).toBe('error');
    expect(faults.injected().reset).toBe(ATTEMPTS);

    // Storage kept nothing of the cut-off PUTs: the file and the summary show 0 bytes, one failed file.
    expect(await uploaded(page, SINGLE_SIZE)).toBe(0);
    await expect.poll(() => page.text(SUMMARY)).toMatch(/^0 of 1 file uploaded · 1 failed · 0%/);
    const seen = await page.progressSeen();
    expect(seen.at(-1)).toBe(0);

    await page.click(RETRY);
    await expectStored(page, 'single.bin');
  });

  it('a cancelled single PUT falls back to 0 and counts as cancelled; its retry stores the same bytes', async () => {
    const page = await open();
    faults.reset();
    // The throttling proxy holds the file's bytes until the cancel has landed: the PUT cannot end before the click.
    throttle.hold();
    await page.setInputFile(SELECTORS.fileInput, join(dir, 'single.bin'));
    await expect.poll(async () => Number(await page.attribute(SELECTORS.upload, 'data-progress')), { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    await page.click(SELECTORS.cancel);
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status')).toBe('aborted');
    throttle.release();

    expect(await uploaded(page, SINGLE_SIZE)).toBe(0);
    await expect.poll(() => page.text(SUMMARY)).toMatch(/^0 of 1 file uploaded · 1 cancelled · 0%/);
    const seen = await page.progressSeen();
    expect(seen.some((value) => value > 0), `progress: ${seen.join(', ')}`).toBe(true);
    expect(seen.at(-1)).toBe(0);

    await page.click(RETRY);
    await expectStored(page, 'single.bin');
  });

  it('a multipart upload kept for resume whose part drops mid-body falls back to the parts storage lists; its retry completes it', async () => {
    const page = await open();
    faults.reset();
    await page.click(SELECTORS.temporaryToken);
    await page.click(RESUME);
    expect(await page.isChecked(RESUME)).toBe(true);
    for (let i = 0; i < ATTEMPTS; i++) faults.inject('reset', isPart(3));
    await page.setInputFile(SELECTORS.fileInput, join(dir, 'parts.bin'));
    await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000, interval: 100 }).toBe('error');

    // What storage acknowledged: the parts of the kept upload it lists.
    const { bucket } = example.storage;
    const { Uploads = [] } = await example.s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    const kept = Uploads.filter((upload) => upload.Key?.endsWith('/parts.bin'));
    expect(kept).toHaveLength(1);
    const { Parts = [] } = await example.s3.send(new ListPartsCommand({ Bucket: bucket, Key: kept[0]!.Key, UploadId: kept[0]!.UploadId }));
    const acknowledged = Parts.reduce((sum, part) => sum + part.Size!, 0);
    expect(Parts.map((part) => part.PartNumber)).not.toContain(3);
    expect(await uploaded(page, MULTIPART_SIZE)).toBe(acknowledged);
    await expect.poll(() => page.text(SUMMARY)).toMatch(/^0 of 1 file uploaded · 1 failed · 0%/);

    await page.click(RETRY);
    await expectStored(page, 'parts.bin');
  });
});
