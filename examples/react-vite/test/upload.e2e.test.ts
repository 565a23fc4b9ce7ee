import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { launchBrowser, openPage as openExamplePage, progressSeen, type TestBrowser } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler } from '@upbeam/upload-server';
import { startExample, type RunningExample } from './example-server';

// The whole path in a real browser: the example page (built with Vite) in headless chromium, its Hono
// server with the upload handler, and the embedded S3-compatible server on another origin.

const FILE_SIZE = 12 * 1024 * 1024 + 321;
/** Upload bandwidth the page gets (DevTools network emulation), bytes per second: ~2 s for the file. */
const UPLOAD_BYTES_PER_SECOND = 6 * 1024 * 1024;

let example: RunningExample;
let browser: TestBrowser;
let fileDir: string;
let filePath: string;
let fileBytes: Buffer;

beforeAll(async () => {
  [example, browser] = await Promise.all([startExample(), launchBrowser()]);
  fileDir = await mkdtemp(join(tmpdir(), 'upbeam-e2e-'));
  fileBytes = randomBytes(FILE_SIZE);
  filePath = join(fileDir, 'holiday video.bin');
  await writeFile(filePath, fileBytes);
});

afterAll(async () => {
  await browser?.close();
  await example?.close();
  if (fileDir) await rm(fileDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const openPage = () => openExamplePage(browser.context, example.origin, UPLOAD_BYTES_PER_SECOND);
describe('example page in chromium, presigned strategy, embedded storage', () => {
  it('uploads a ~12 MB file picked on the page: progress climbs to 100, storage holds the same bytes', async () => {
    const page = await openPage();
    await page.setInputFiles('[data-testid="file-input"]', filePath);
    const item = page.getByTestId('upload');
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');

    const seen = await progressSeen(page);
    const between = seen.filter((value) => value > 0 && value < 100);
    expect(between.length, `progress values seen: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    await expect.poll(() => page.locator('progress').getAttribute('value')).toBe('100');

    const url = await page.getByTestId('object-url').textContent();
    const prefix = `${example.storage.endpoint}/${example.storage.bucket}/`;
    expect(url?.startsWith(prefix)).toBe(true);
    const key = decodeURIComponent(url!.slice(prefix.length));
    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-video\.bin$/);

    const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
    const stored = await object.Body!.transformToByteArray();
    expect(stored.byteLength).toBe(FILE_SIZE);
    expect(sha256(stored)).toBe(sha256(fileBytes));
    expect(object.ContentType).toBe('application/octet-stream');
    expect(object.CacheControl).toBe('max-age=630720000');
    await page.close();
  });

  it('cancel mid-upload rejects with AbortError "Upload aborted." and the file is not stored whole', async () => {
    const page = await openPage();
    const prepared = page.waitForResponse((response) => response.url().endsWith('/api/s3-upload'));
    await page.setInputFiles('[data-testid="file-input"]', filePath);
    const { key } = await (await prepared).json();
    const item = page.getByTestId('upload');
    await expect.poll(async () => Number(await item.getAttribute('data-progress')), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();

    await expect.poll(() => page.getByTestId('error').textContent()).toBe('AbortError: Upload aborted.');
    expect(await item.getAttribute('data-status')).toBe('aborted');
    expect(Number(await item.getAttribute('data-progress'))).toBeLessThan(100);
    // Real S3 refuses a body shorter than its Content-Length (IncompleteBody) and stores nothing; s3rver
    // keeps what arrived before the connection closed. Either way the whole file must not be there.
    const head = await example.s3
      .send(new HeadObjectCommand({ Bucket: example.storage.bucket, Key: key }))
      .catch((error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode);
    expect(head === 404 || (typeof head === 'object' && head.ContentLength! < FILE_SIZE)).toBe(true);
    await page.close();
  });
});

describe('example page in chromium: the hook and the endpoint\'s errors', () => {
  it('tracks a picked file at progress 0 before the preparation request is answered', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    const standard = createUploadHandler({ ...example.settings, stsClient: example.storage.stsClient });
    example.setUploadHandler(async (request) => {
      requests += 1;
      await held;
      return standard(request);
    });
    try {
      const page = await openPage();
      await page.setInputFiles('[data-testid="file-input"]', filePath);
      const item = page.getByTestId('upload');
      await expect.poll(() => item.getAttribute('data-status')).toBe('uploading');
      expect(await item.getAttribute('data-progress')).toBe('0');
      expect(await item.textContent()).toContain(`0 of ${FILE_SIZE.toLocaleString('en-US')} bytes`);
      await expect.poll(() => requests).toBe(1);
      release();
      await expect.poll(() => item.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
      await page.close();
    } finally {
      release();
      example.setUploadHandler(undefined);
    }
  });

  it('shows the endpoint\'s 500 "Internal Server Error" when the server lacks its settings', async () => {
    const saved = { ...process.env };
    const logged: unknown[] = [];
    for (const name of ['S3_UPLOAD_KEY', 'S3_UPLOAD_SECRET', 'S3_UPLOAD_BUCKET', 'S3_UPLOAD_REGION']) delete process.env[name];
    example.setUploadHandler(createUploadHandler({ onError: (error) => logged.push(error) }));
    try {
      const page = await openPage();
      await page.setInputFiles('[data-testid="file-input"]', filePath);
      await expect.poll(() => page.getByTestId('error').textContent()).toBe('UploadClientError: Internal Server Error');
      expect(await page.getByTestId('upload').getAttribute('data-status')).toBe('error');
      expect(String(logged[0])).toContain('Missing ENVs S3_UPLOAD_KEY, S3_UPLOAD_SECRET, S3_UPLOAD_BUCKET, S3_UPLOAD_REGION');
      await page.close();
    } finally {
      process.env = saved;
      example.setUploadHandler(undefined);
    }
  });
});

describe('example page in chromium, temporary-token strategy (multipart), embedded storage', () => {
  it('uploads the file in 5 MiB parts with the temporary credentials: progress climbs to 100, bytes equal', async () => {
    const page = await openPage();
    await page.getByLabel('Temporary token (multipart)').check();
    const prepared = page.waitForResponse((response) => response.url().endsWith('/api/s3-upload'));
    const parts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().includes('partNumber=')) parts.push(request.url());
    });
    await page.setInputFiles('[data-testid="file-input"]', filePath);
    const answer = await (await prepared).json();
    expect(Object.keys(answer).sort()).toEqual(['bucket', 'endpoint', 'forcePathStyle', 'key', 'region', 'serverTime', 'ticket', 'token']);
    const item = page.getByTestId('upload');
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 90_000 }).toBe('done');

    expect(new Set(parts.map((url) => new URL(url).searchParams.get('partNumber')))).toEqual(new Set(['1', '2', '3']));
    const seen = await progressSeen(page);
    expect(seen.filter((value) => value > 0 && value < 100).length, `progress: ${seen.join(', ')}`).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);

    const url = await page.getByTestId('object-url').textContent();
    expect(url).toBe(`${example.storage.endpoint}/${example.storage.bucket}/${answer.key}`);
    const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: answer.key }));
    const stored = await object.Body!.transformToByteArray();
    expect(sha256(stored)).toBe(sha256(fileBytes));
    expect(object.ContentType).toBe('application/octet-stream');
    expect(object.CacheControl).toBe('max-age=630720000, public');
    await page.close();
  });

  it('cancel mid-upload rejects with AbortError "Upload aborted."', async () => {
    const page = await openPage();
    await page.getByLabel('Temporary token (multipart)').check();
    const aborted = page.waitForRequest((request) => request.method() === 'DELETE' && request.url().includes('uploadId='));
    await page.setInputFiles('[data-testid="file-input"]', filePath);
    const item = page.getByTestId('upload');
    await expect.poll(async () => Number(await item.getAttribute('data-progress')), { timeout: 60_000 }).toBeGreaterThan(0);
    // force: no waiting for the button to stand still (the progress text beside it changes width).
    await page.getByRole('button', { name: 'Cancel', exact: true }).click({ force: true });
    await expect.poll(() => page.getByTestId('error').textContent()).toBe('AbortError: Upload aborted.');
    expect(await item.getAttribute('data-status')).toBe('aborted');
    // The multipart upload is aborted on storage (AbortMultipartUpload) before the promise rejects.
    await aborted;
    await page.close();
  });
});
