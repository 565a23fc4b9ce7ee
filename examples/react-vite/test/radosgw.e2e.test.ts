import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { launchBrowser, openPage, progressSeen, type TestBrowser } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';

// Both strategies from the example page in chromium, against Ceph radosgw (real SigV4, multipart, STS
// AssumeRole with the one-key session policy), on another origin than the page (CORS exercised).

const connection = inject('radosgw');
const MiB = 1024 * 1024;
const BIG = 40 * MiB + 123;
const bucket = `e2e-${Date.now().toString(36)}`;

let example: RunningExample;
let browser: TestBrowser;
let admin: S3Client;
let dir: string;
let bigPath: string;
let bigBytes: Buffer;

beforeAll(async () => {
  if (!connection) return;
  [example, browser] = await Promise.all([startExample(), launchBrowser()]);
  await createBucket(connection, bucket, { allowedOrigins: [example.origin] });
  const roleArn = await createUploadRole(connection);
  admin = radosgwS3Client(connection);
  example.setUploadHandler(createUploadHandler(tokenHandlerSettings(connection, bucket, roleArn)));
  dir = await mkdtemp(join(tmpdir(), 'upbeam-rgw-e2e-'));
  bigBytes = randomBytes(BIG);
  bigPath = join(dir, 'dataset.bin');
  await writeFile(bigPath, bigBytes);
});

afterAll(async () => {
  admin?.destroy();
  await browser?.close();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function keyOfUpload(page: Awaited<ReturnType<typeof openPage>>) {
  const url = await page.getByTestId('object-url').textContent();
  const prefix = `${connection!.endpoint}/${bucket}/`;
  expect(url?.startsWith(prefix), String(url)).toBe(true);
  return decodeURIComponent(url!.slice(prefix.length));
}

describe.skipIf(!connection)('example page in chromium against radosgw', () => {
  it('temporary-token: a ~40 MiB multipart upload completes byte-identical, progress climbing', async () => {
    const page = await openPage(browser.context, example.origin, -1);
    await page.getByLabel('Temporary token (multipart)').check();
    await page.setInputFiles('[data-testid="file-input"]', bigPath);
    const item = page.getByTestId('upload');
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 110_000, interval: 500 }).toBe('done');
    const seen = await progressSeen(page);
    expect(seen.filter((v) => v > 0 && v < 100).length, seen.join(', ')).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const key = await keyOfUpload(page);
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ETag).toMatch(/-9"$/);
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(bigBytes));
    expect(object.CacheControl).toBe('max-age=630720000, public');
    await page.close();
  });

  it('temporary-token: cancel mid-upload rejects with AbortError and leaves no incomplete multipart upload', async () => {
    const page = await openPage(browser.context, example.origin, 8 * MiB);
    await page.getByLabel('Temporary token (multipart)').check();
    const prepared = page.waitForResponse((response) => response.url().endsWith('/api/s3-upload'));
    const partSent = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes('partNumber='));
    await page.setInputFiles('[data-testid="file-input"]', bigPath);
    const { key } = await (await prepared).json();
    // Cancel once the first part is on its way. Not on the first progress event: the browser reports the
    // parts' bytes as buffered long before they are through the throttle, and the 40 MiB can be stored by
    // the time a click lands. force: no waiting for the button to stand still (the progress text beside
    // it changes width).
    await partSent;
    await page.getByRole('button', { name: 'Cancel', exact: true }).click({ force: true });
    const item = page.getByTestId('upload');
    await expect.poll(() => page.getByTestId('error').textContent(), { timeout: 30_000 }).toBe('AbortError: Upload aborted.');
    expect(await item.getAttribute('data-status')).toBe('aborted');
    expect(Number(await item.getAttribute('data-progress'))).toBeLessThan(100);
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
    expect(Uploads).toEqual([]);
    await page.close();
  });

  it('presigned: a PUT from the page is stored byte-identical with the signed headers', async () => {
    const small = randomBytes(3 * MiB);
    const path = join(dir, 'photo.jpg');
    await writeFile(path, small);
    const page = await openPage(browser.context, example.origin, -1);
    await page.setInputFiles('[data-testid="file-input"]', path);
    await expect.poll(() => page.getByTestId('upload').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: await keyOfUpload(page) }));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(small));
    expect(object.ContentType).toBe('image/jpeg');
    expect(object.CacheControl).toBe('max-age=630720000');
    await page.close();
  });
});
