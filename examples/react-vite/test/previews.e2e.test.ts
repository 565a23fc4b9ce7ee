import { readFile } from 'node:fs/promises';
import { ENGINES, launchBrowser, openExamplePage, type Engine, type ExamplePage, type TestBrowser } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';

// The components' row previews (`Thumbnail` over `drawPreview` of `@upbeam/upload-client/preview`) in every
// engine, on the example's components page: a photo's row shows a bitmap decoded at the row's size (not the
// photo's), a video's row its first frame where the engine decodes the file, other files nothing; the preview
// worker is fetched (decoding off the main thread); after Clear list no bitmap and no object URL is left open
// (read from the previews' debug figures, `globalThis[Symbol.for('upbeam.previews')]`: not API).

const ROW = '[data-upbeam="row"]';
/** The clip: 64 × 48 pixels, VP8 in WebM (recorded once by chromium's MediaRecorder from a canvas). */
const CLIP = new URL('./preview-fixtures/clip.webm', import.meta.url);

/**
 * Whether the engine decodes the clip's first frame here: all three (Debian's chromium and firefox-esr decode
 * VP8 themselves, WebKitGTK through GStreamer's WebM and VP8 plugins). Safari on macOS and iOS may not decode
 * a WebM: an engine that does not gets a blank square (the `false` case below).
 */
const DECODES_WEBM: Record<Engine, boolean> = { chromium: true, firefox: true, webkit: true };

let example: RunningExample;
let clip: string;

beforeAll(async () => {
  example = await startExample();
  clip = (await readFile(CLIP)).toString('base64');
});
afterAll(async () => {
  await example?.close();
});

/**
 * Drops on the drop zone a 1200 × 800 JPEG made in the page, the same stored sideways (1200 × 800 with EXIF
 * orientation 6: upright it is 800 × 1200), the clip and a text file.
 */
async function dropFiles(page: ExamplePage, clipBase64: string): Promise<void> {
  await page.evaluate(async (video) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1200;
    canvas.height = 800;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#0ea5e9';
    context.fillRect(0, 0, 1200, 800);
    context.fillStyle = '#f59e0b';
    context.fillRect(300, 200, 600, 400);
    const photo = await new Promise<Blob>((resolve) => canvas.toBlob((blob) => resolve(blob!), 'image/jpeg', 0.9));
    // An APP1 Exif block after the JPEG's APP0 (JFIF; Firefox refuses to decode an Exif block before it): a
    // big-endian TIFF header, IFD0 with Orientation (0x0112) = 6.
    const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
    const exif = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
    const app1 = [0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff, ...exif];
    const bytes = new Uint8Array(await photo.arrayBuffer());
    const at = bytes[3] === 0xe0 ? 4 + ((bytes[4]! << 8) | bytes[5]!) : 2;
    const turned = new Blob([bytes.subarray(0, at), new Uint8Array(app1), bytes.subarray(at)], { type: 'image/jpeg' });
    const transfer = new DataTransfer();
    transfer.items.add(new File([photo], 'photo.jpg', { type: 'image/jpeg' }));
    transfer.items.add(new File([turned], 'turned.jpg', { type: 'image/jpeg' }));
    transfer.items.add(new File([Uint8Array.from(atob(video), (c) => c.charCodeAt(0))], 'clip.webm', { type: 'video/webm' }));
    transfer.items.add(new File(['some words'], 'notes.txt', { type: 'text/plain' }));
    const zone = document.querySelector('[data-upbeam="dropzone"]')!;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      let event: Event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
      if ((event as DragEvent).dataTransfer !== transfer) {
        event = new Event(type, { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: transfer });
      }
      zone.dispatchEvent(event);
    }
  }, clipBase64);
}

/** Each row's thumbnail: its element, bitmap size (a canvas's), and whether a preview is drawn. */
const thumbnails = (page: ExamplePage) =>
  page.evaluate(
    (row) =>
      Object.fromEntries(
        Array.from(document.querySelectorAll(row), (element) => {
          const thumbnail = element.querySelector<HTMLElement>('[data-upbeam="thumbnail"]')!;
          const canvas = thumbnail instanceof HTMLCanvasElement ? thumbnail : undefined;
          return [element.getAttribute('data-name'), { tag: thumbnail.tagName.toLowerCase(), drawn: thumbnail.dataset.preview === 'drawn', width: canvas?.width ?? null, height: canvas?.height ?? null }];
        }),
      ),
    ROW,
  );

/** The previews' debug figures (not API): bitmaps open, previews known, video object URLs open. */
const figures = (page: ExamplePage) =>
  page.evaluate(() => {
    const found = (globalThis as unknown as Record<symbol, { open: number; known: number; videoUrls: number } | undefined>)[Symbol.for('upbeam.previews')];
    return found ? { open: found.open, known: found.known, videoUrls: found.videoUrls } : null;
  }, undefined);

describe.each(ENGINES)('row previews in %s', (engine) => {
  let browser: TestBrowser;
  let page: ExamplePage | undefined;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  it('draws a photo at the row size (a sideways one upright), a video first frame where the engine decodes it, nothing for a text file; all released by Clear list', async () => {
    page = await openExamplePage(browser, `${example.origin}/components.html?component=uploader&theme=light`, '[data-upbeam="root"]');
    const ratio = await page.evaluate(() => devicePixelRatio, undefined);
    await dropFiles(page, clip);
    const side = Math.round(40 * ratio);
    await expect.poll(() => thumbnails(page!).then((all) => all['photo.jpg']), { timeout: 20_000 }).toEqual({
      tag: 'canvas',
      drawn: true,
      // 1200 × 800 decoded with its shorter side at the row's 40 CSS pixels.
      width: Math.round(side * 1.5),
      height: side,
    });
    // Stored sideways: drawn upright, its shorter side (now the width) at the row's size.
    await expect.poll(() => thumbnails(page!).then((all) => all['turned.jpg']), { timeout: 20_000 }).toEqual({
      tag: 'canvas',
      drawn: true,
      width: side,
      height: Math.round(side * 1.5),
    });
    const video = DECODES_WEBM[engine]
      ? { tag: 'canvas', drawn: true, width: Math.round((side * 64) / 48), height: side }
      : { tag: 'canvas', drawn: false, width: 0, height: 0 };
    await expect.poll(() => thumbnails(page!).then((all) => all['clip.webm']), { timeout: 20_000 }).toEqual(video);
    expect((await thumbnails(page))['notes.txt']).toEqual({ tag: 'span', drawn: false, width: null, height: null });
    // Decoded off the main thread: the page fetched the preview worker's file.
    expect(await page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /preview-worker/.test(entry.name)), undefined)).toBe(true);
    const held = await figures(page);
    expect(held?.open).toBe(DECODES_WEBM[engine] ? 3 : 2);
    await expect.poll(() => page!.evaluate((row) => Array.from(document.querySelectorAll(row), (e) => e.getAttribute('data-status')), ROW), { timeout: 30_000 }).toEqual([
      'done',
      'done',
      'done',
      'done',
    ]);
    await page.click('[data-action="clear"]');
    await expect.poll(() => page!.evaluate((row) => document.querySelectorAll(row).length, ROW)).toBe(0);
    await expect.poll(() => figures(page!)).toEqual({ open: 0, known: 0, videoUrls: 0 });
  });
});
