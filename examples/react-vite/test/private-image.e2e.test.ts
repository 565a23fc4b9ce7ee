import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES, launchBrowser, openExamplePage, type TestBrowser } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { SELECTORS } from './selectors';

// The example shows an uploaded image from its private bucket (`objectAcl: 'private'`) through a signed GET
// URL its server gives (`createObjectAccess().signedGetUrl`, `/api/object-url`), in chromium, Firefox and
// WebKit: `result.url` opens only on a public bucket.

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let example: RunningExample;
let dir: string;
let pngPath: string;

beforeAll(async () => {
  example = await startExample();
  dir = await mkdtemp(join(tmpdir(), 'upbeam-private-image-'));
  pngPath = join(dir, 'dot.png');
  await writeFile(pngPath, PNG);
});
afterAll(async () => {
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(ENGINES)('private image in %s', (engine) => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser(engine);
  }, 120_000);
  afterAll(async () => browser?.close());

  it('shows the stored image through a signed GET URL; a key outside the uploads gets none (404)', async () => {
    const page = await openExamplePage(browser, example.origin, SELECTORS.fileInput);
    try {
      await page.setInputFile(SELECTORS.fileInput, pngPath);
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 30_000 }).toBe('done');
      const image = () =>
        page.evaluate(() => {
          const img = document.querySelector<HTMLImageElement>('[data-testid="stored-image"]');
          return img && img.complete ? { width: img.naturalWidth, src: img.src } : undefined;
        }, undefined);
      await expect.poll(async () => (await image())?.width, { timeout: 15_000 }).toBe(1);
      const { searchParams, pathname } = new URL((await image())!.src);
      expect(searchParams.get('X-Amz-Expires')).toBe('300');
      expect(searchParams.has('X-Amz-Signature')).toBe(true);
      expect(pathname).toMatch(/\/next-s3-uploads\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{21}\/dot\.png$/);
      const outside = await page.evaluate(async () => (await fetch('/api/object-url?key=secrets/a.png')).status, undefined);
      expect(outside).toBe(404);
    } finally {
      await page.close().catch(() => {});
    }
  });
});
