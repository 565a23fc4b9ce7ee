import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { startFaultProxy, type FaultProxy, type LoggedRequest, type S3Request } from '@upbeam/fault-proxy';
import { chromiumProgressSeen, launchChromiumContext, openChromiumPage, type ChromiumContext } from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandler, type UploadHandlerConfig } from '@upbeam/upload-server';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { chooseStrategy, failedForPage, falls, sha256 } from './fault-upload';
import { SELECTORS } from './selectors';

// Retries in a real browser: the example page in chromium uploads through a fault-injecting proxy in
// front of the embedded storage (s3rver). The upload handler's `endpoint` is the proxy, so both the
// presigned URL and the AWS SDK of the temporary-token strategy go through it. Each test queues the
// faults it needs on the proxy and checks what reached storage.

const MiB = 1024 * 1024;

let example: RunningExample;
let browser: ChromiumContext;
let proxy: FaultProxy;
let dir: string;
let handlerConfig: UploadHandlerConfig;
let prepares = 0;
const files = new Map<string, Buffer>();

/** The handler of the page, counting preparation calls; `config` changes its settings. */
function useHandler(config: Partial<UploadHandlerConfig> = {}) {
  const handler: UploadHandler = createUploadHandler({ ...handlerConfig, ...config });
  example.setUploadHandler(async (request) => {
    prepares += 1;
    return handler(request);
  });
}

beforeAll(async () => {
  [example, browser] = await Promise.all([startExample(), launchChromiumContext()]);
  proxy = await startFaultProxy({ target: example.storage.endpoint });
  handlerConfig = { ...example.settings, endpoint: proxy.url, stsClient: example.storage.stsClient };
  useHandler();
  dir = await mkdtemp(join(tmpdir(), 'upbeam-retry-'));
  for (const [name, size] of [
    ['photo.jpg', 3 * MiB + 17],
    ['video.bin', 12 * MiB + 321],
  ] as const) {
    const bytes = randomBytes(size);
    files.set(name, bytes);
    await writeFile(join(dir, name), bytes);
  }
});

afterEach(() => {
  proxy.reset();
  prepares = 0;
  useHandler();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const is =
  (operation: S3Request['operation'], partNumber?: number) =>
  (request: S3Request): boolean =>
    request.operation === operation && (partNumber === undefined || request.query.get('partNumber') === String(partNumber));

/** Picks `name` on a fresh page with that strategy; `bandwidth` bounds the upload, bytes per second. */
async function startUpload(name: string, strategy: 'presigned' | 'temporary-token', bandwidth = -1): Promise<Page> {
  const page = await openChromiumPage(browser.context, example.origin, bandwidth);
  await chooseStrategy(page, strategy);
  await page.setInputFiles(SELECTORS.fileInput, join(dir, name));
  return page;
}

/** Waits for the page's upload to end `done`; checks storage holds the same bytes; returns the key. */
async function expectStored(page: Page, name: string): Promise<string> {
  const item = page.locator(SELECTORS.upload);
  await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000, interval: 100 }).not.toMatch(/^(queued|uploading)$/);
  const error = page.locator(SELECTORS.error);
  expect(await item.getAttribute('data-status'), (await error.count()) ? String(await error.textContent()) : '').toBe('done');
  const url = (await page.getByTestId('object-url').textContent())!;
  const prefix = `${proxy.url}/${example.storage.bucket}/`;
  expect(url.startsWith(prefix), url).toBe(true);
  const key = decodeURIComponent(url.slice(prefix.length));
  const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
  expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(files.get(name)!));
  const seen = await chromiumProgressSeen(page);
  // Progress falls back only when a request with bytes in flight failed: never more often than storage requests
  // failed in this test (one upload; a fresh preparation may have changed its key).
  const faulted = proxy.requests().filter(failedForPage);
  expect(falls(seen), `progress went back: ${seen.join(', ')}`).toBeLessThanOrEqual(faulted.length);
  expect(seen.at(-1)).toBe(100);
  return key;
}

const storageRequests = (operation: S3Request['operation']) => proxy.requests().filter((r) => r.operation === operation);

/**
 * Waits until the proxy has answered the faulted request `faulted` selects (a 503 with Retry-After: 30),
 * lets the page read it, then clicks Cancel: the page must show the AbortError within a second.
 */
async function cancelDuringRetryWait(page: Page, faulted: (r: LoggedRequest) => boolean) {
  await expect
    .poll(() => proxy.requests().find((r) => faulted(r) && r.answeredAt !== undefined), { timeout: 30_000, interval: 50 })
    .toBeDefined();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const item = page.locator(SELECTORS.upload);
  expect(await item.getAttribute('data-status')).toBe('uploading');
  const started = Date.now();
  // force: no waiting for the button to stand still (the progress text beside it changes width).
  await page.locator(SELECTORS.cancel).click({ force: true });
  await expect.poll(() => page.locator(SELECTORS.status).textContent(), { timeout: 5000, interval: 25 }).toBe('Cancelled');
  expect(Date.now() - started).toBeLessThan(1000);
  expect(await item.getAttribute('data-status')).toBe('aborted');
}

describe('retries in chromium through a fault-injecting proxy: presigned PUT', () => {
  it('a PUT answered 503 is sent again and the file is stored byte-identical', async () => {
    proxy.inject('error-503', is('PutObject'));
    const page = await startUpload('photo.jpg', 'presigned');
    await expectStored(page, 'photo.jpg');
    expect(storageRequests('PutObject').map((r) => [r.fault, r.storageStatus])).toEqual([
      ['error-503', undefined],
      [undefined, 200],
    ]);
    expect(proxy.retries()).toBe(1);
    expect(prepares).toBe(1);
    await page.close();
  });

  it('a connection reset mid-body is retried; progress holds while the new PUT restarts from byte 0', async () => {
    proxy.inject('reset', is('PutObject'));
    // 8 MiB/s: the page sees progress of the first PUT before the proxy cuts it at half the body.
    const page = await startUpload('video.bin', 'presigned', 8 * MiB);
    await expectStored(page, 'video.bin');
    expect(storageRequests('PutObject').map((r) => r.fault)).toEqual(['reset', undefined]);
    const seen = await chromiumProgressSeen(page);
    expect(seen.filter((v) => v > 0 && v < 100).length, seen.join(', ')).toBeGreaterThanOrEqual(3);
    await page.close();
  });

  it('500, SlowDown, a response without CORS headers, a truncated answer: each retried, the file stored', async () => {
    proxy.inject('error-500', is('PutObject'));
    proxy.inject('slow-down', is('PutObject'));
    let page = await startUpload('photo.jpg', 'presigned');
    await expectStored(page, 'photo.jpg');
    await page.close();
    proxy.inject('no-cors', is('PutObject'));
    proxy.inject('truncate', is('PutObject'));
    page = await startUpload('photo.jpg', 'presigned');
    await expectStored(page, 'photo.jpg');
    await page.close();
    expect(storageRequests('PutObject').map((r) => r.fault)).toEqual(['error-500', 'slow-down', undefined, 'no-cors', 'truncate', undefined]);
    expect(proxy.retries()).toBe(4);
  });

  it('an expired presigned URL is prepared again and the PUT sent to the fresh URL', async () => {
    // URLs valid 2 s; the proxy holds the first PUT 3.5 s, so storage refuses it: 403 "Request has expired".
    useHandler({ expiresIn: 2 });
    proxy.inject({ kind: 'delay', delayMs: 3500 }, is('PutObject'));
    const page = await startUpload('photo.jpg', 'presigned');
    await expectStored(page, 'photo.jpg');
    const puts = storageRequests('PutObject');
    expect(puts.map((r) => [r.fault, r.storageStatus])).toEqual([
      ['delay', 403],
      [undefined, 200],
    ]);
    expect(prepares).toBe(2);
    await page.close();
  });

  it('a 403 that is not expiry is not retried: one PUT, one preparation, the storage error shown', async () => {
    useHandler({ secretAccessKey: 'not-the-secret' });
    const page = await startUpload('photo.jpg', 'presigned');
    await expect.poll(() => page.locator(SELECTORS.error).textContent(), { timeout: 30_000 }).toMatch(
      /^Storage refused the upload \(403 SignatureDoesNotMatch\)/,
    );
    expect(await page.locator(SELECTORS.upload).getAttribute('data-status')).toBe('error');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(storageRequests('PutObject').map((r) => r.storageStatus)).toEqual([403]);
    expect(prepares).toBe(1);
    await page.close();
  });

  it('cancel while a retry waits (503 with Retry-After: 30) rejects at once with AbortError', async () => {
    proxy.inject({ kind: 'error-503-retry-after', retryAfter: '30' }, is('PutObject'));
    const page = await startUpload('photo.jpg', 'presigned');
    await cancelDuringRetryWait(page, (r) => r.operation === 'PutObject');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(storageRequests('PutObject')).toHaveLength(1);
    await page.close();
  });
});

describe('retries in chromium through a fault-injecting proxy: temporary-token multipart (AWS SDK)', () => {
  it('faults on every kind of request (create, parts, complete) are retried; the file is stored byte-identical', async () => {
    proxy.inject('slow-down', is('CreateMultipartUpload'));
    proxy.inject('reset', is('UploadPart', 1));
    proxy.inject('drop-etag', is('UploadPart', 2));
    proxy.inject('truncate', is('UploadPart', 2));
    proxy.inject({ kind: 'error-503-retry-after', retryAfter: '1' }, is('UploadPart', 3));
    proxy.inject('error-500', is('CompleteMultipartUpload'));
    proxy.inject('no-cors', is('CompleteMultipartUpload'));
    const page = await startUpload('video.bin', 'temporary-token', 16 * MiB);
    await expectStored(page, 'video.bin');
    const faults = proxy.injected();
    expect(Object.values(faults).reduce((a, b) => a + b, 0)).toBe(7);
    expect(storageRequests('CreateMultipartUpload').map((r) => r.fault)).toEqual(['slow-down', undefined]);
    expect(storageRequests('UploadPart').filter((r) => r.identity.endsWith('partNumber=2')).map((r) => r.fault)).toEqual([
      'drop-etag',
      'truncate',
      undefined,
    ]);
    expect(storageRequests('CompleteMultipartUpload').map((r) => r.fault)).toEqual(['error-500', 'no-cors', undefined]);
    expect(proxy.retries()).toBe(7);
    expect(proxy.multipart().orphans).toEqual([]);
    await page.close();
  });

  it('a part whose connection is reset mid-body is sent again; progress holds', async () => {
    proxy.inject('reset', is('UploadPart', 1));
    proxy.inject('reset', is('UploadPart', 1));
    const page = await startUpload('video.bin', 'temporary-token', 8 * MiB);
    await expectStored(page, 'video.bin');
    expect(storageRequests('UploadPart').filter((r) => r.identity.endsWith('partNumber=1')).map((r) => r.fault)).toEqual([
      'reset',
      'reset',
      undefined,
    ]);
    await page.close();
  });

  it('a part that fails 3 times fails the upload, which is then aborted on storage', async () => {
    for (let i = 0; i < 3; i++) proxy.inject('error-500', is('UploadPart', 2));
    const page = await startUpload('video.bin', 'temporary-token');
    await expect.poll(() => page.locator(SELECTORS.error).textContent(), { timeout: 30_000 }).toMatch(
      /^Storage refused the upload \(500 InternalError\)/,
    );
    expect(storageRequests('UploadPart').filter((r) => r.identity.endsWith('partNumber=2'))).toHaveLength(3);
    await expect.poll(() => storageRequests('AbortMultipartUpload').length).toBe(1);
    await page.close();
  });

  it('cancel while a part waits to be retried (Retry-After: 30) rejects at once with AbortError', async () => {
    proxy.inject({ kind: 'error-503-retry-after', retryAfter: '30' }, is('UploadPart', 1));
    const page = await startUpload('video.bin', 'temporary-token', 4 * MiB);
    await cancelDuringRetryWait(page, (r) => r.operation === 'UploadPart' && r.fault !== undefined);
    // No part 1 again; the multipart upload is aborted on storage (s3rver answers AbortMultipartUpload 405).
    expect(storageRequests('UploadPart').filter((r) => r.identity.endsWith('partNumber=1'))).toHaveLength(1);
    expect(storageRequests('AbortMultipartUpload')).toHaveLength(1);
    await page.close();
  });
});
