import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startExample, type RunningExample } from '@upbeam/example-shared/example-server';
import { launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from './bundle-page';

// A long kept queue (issue 47), in chromium: 2,000 files added to a tracker with `persist: true`
// (`persist-many-page.tsx`) in batches, as a folder drop hands them over, their preparations held so that none
// is sent yet; once every file shows `kept` the page is reloaded; the new page, with no user action, restores all
// 2,000 and uploads them; each is stored exactly once, and the kept queue is empty at the end. (The kept queue
// writes its files in batches, one IndexedDB transaction each; at 50,000 files see `bench:persist-scale`.)

const COUNT = 2000;

let dir: string;
let example: RunningExample;
/** The `filename` of each object key a preparation answered. */
const nameOfKey = new Map<string, string>();
/** While set, preparations wait for it (the files stay queued and kept). */
let held: Promise<void> | undefined;
let release: () => void = () => {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upbeam-persist-many-'));
  await writeFile(join(dir, 'page.js'), await bundlePage(new URL('./persist-many-page.tsx', import.meta.url)));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html lang="en"><body><script type="module" src="/page.js"></script></body></html>');
  example = await startExample(dir);
  const handler: UploadHandler = createUploadHandler({ ...example.settings, stsClient: example.storage.stsClient });
  example.setUploadHandler(async (request) => {
    const body = (await request.clone().json()) as { filename?: string; _upload?: { complete?: unknown } };
    if (held && !body._upload?.complete) await held;
    const response = await handler(request);
    if (response.ok && !body._upload?.complete && body.filename) nameOfKey.set(((await response.clone().json()) as { key: string }).key, body.filename);
    return response;
  });
}, 120_000);

afterAll(async () => {
  release();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every object in the bucket, by key. */
async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await example.s3.send(new ListObjectsV2Command({ Bucket: example.storage.bucket, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

/** Keys of the kept queue's records now. */
const keptRecords = (page: TestPage) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const opening = indexedDB.open('upbeam-resume');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const counting = opening.result.transaction('queue').objectStore('queue').count();
          counting.onsuccess = () => {
            opening.result.close();
            resolve(counting.result);
          };
        };
      }),
    undefined,
  );

describe('a kept queue of 2,000 files, in chromium', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser('chromium');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is kept, restored after a reload, and each file is stored once', { timeout: 240_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(`${example.origin}/`);
    await expect.poll(() => page.evaluate(() => typeof window.persistMany?.add, undefined)).toBe('function');
    held = new Promise((resolve) => (release = resolve));
    await page.evaluate((count) => window.persistMany.add(count), COUNT);
    await expect.poll(() => page.evaluate(() => window.persistMany.counts(), undefined), { timeout: 60_000 }).toMatchObject({ files: COUNT, kept: COUNT, done: 0 });
    expect(await keptRecords(page)).toBe(COUNT);

    // The page goes; the preparations it asked for are let through only once it has (they prepare, nothing is sent).
    await page.goto(`${example.origin}/`);
    release();
    held = undefined;
    await expect.poll(() => page.evaluate(() => window.persistMany?.counts().restored, undefined), { timeout: 30_000 }).toBe(COUNT);
    await expect
      .poll(() => page.evaluate(() => window.persistMany.counts(), undefined), { timeout: 180_000, interval: 1000 })
      .toMatchObject({ files: COUNT, restored: COUNT, done: COUNT, failed: 0 });

    const stored = (await storedKeys()).map((key) => nameOfKey.get(key));
    expect(stored.length).toBe(COUNT);
    expect(new Set(stored).size).toBe(COUNT);
    expect(stored.every((name) => name !== undefined && /^file-\d+\.bin$/.test(name))).toBe(true);
    // Each done file left the kept queue.
    await expect.poll(() => keptRecords(page)).toBe(0);
    await page.close();
  });
});
