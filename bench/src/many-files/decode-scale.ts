/**
 * Does `createImageBitmap(blob, { resizeWidth, resizeHeight })` decode a photo at the size asked, or the whole
 * picture and then scale it? In each engine (chromium, Firefox, WebKit through `@upbeam/test-browser`), in a
 * Worker as `@upbeam/upload-client/preview` runs it: the milliseconds of a 6000 × 4000 JPEG (~4 MB, made by
 * chromium as the photo runs make it) decoded whole and decoded to 60 × 40, and of a 1500 × 1000 JPEG decoded whole
 * (a quarter-scale decode costs about that where the decoder scales in its DCT). Medians of 7, after one warm-up
 * each. `tsx src/many-files/decode-scale.ts` (opt-in, prints its figures; bench/notes/previews.md keeps them).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_ENGINES, launchBrowser, type TestPage } from '@upbeam/test-browser';
import { median } from '../lib/stats';

const ROUNDS = 7;

/** Makes the photo in the page (the photo runs' recipe: a gradient under faint noise), as JPEG bytes; and a small one. */
// Sent as source text (tsx would name the inner functions with a helper the page lacks).
const MAKE_PHOTOS = `(async () => {
  const make = async (width, height) => {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    const gradient = context.createLinearGradient(0, 0, width, height);
    gradient.addColorStop(0, '#0b3d91');
    gradient.addColorStop(0.5, '#f59e0b');
    gradient.addColorStop(1, '#065f46');
    context.fillStyle = gradient;
    context.fillRect(0, 0, width, height);
    const tile = new OffscreenCanvas(509, 503);
    const pixels = new ImageData(509, 503);
    for (let at = 0; at < pixels.data.length; at += 4) {
      pixels.data.fill(Math.random() * 255, at, at + 3);
      pixels.data[at + 3] = 255;
    }
    tile.getContext('2d').putImageData(pixels, 0, 0);
    context.globalAlpha = 0.08;
    context.fillStyle = context.createPattern(tile, 'repeat');
    context.fillRect(0, 0, width, height);
    const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 })).arrayBuffer());
    let text = '';
    for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    return btoa(text);
  };
  return { large: await make(6000, 4000), small: await make(1500, 1000) };
})()`;

async function makePhotos(page: TestPage): Promise<{ large: string; small: string }> {
  return page.evaluate((code) => (0, eval)(code) as Promise<{ large: string; small: string }>, MAKE_PHOTOS);
}

/** The worker's code: times each way of decoding, `rounds` times after a warm-up; posts the milliseconds. */
const WORKER = `
onmessage = async ({ data: { large, small, rounds } }) => {
  const time = async (blob, options) => {
    const out = [];
    for (let round = 0; round <= rounds; round++) {
      const started = performance.now();
      const bitmap = await createImageBitmap(blob, options);
      const ms = performance.now() - started;
      const size = bitmap.width + 'x' + bitmap.height;
      bitmap.close();
      if (round > 0) out.push(ms);
      out.size = size;
    }
    return { ms: out, size: out.size };
  };
  const result = {};
  try {
    result.whole = await time(large, undefined);
    result.resized = await time(large, { resizeWidth: 60, resizeHeight: 40, resizeQuality: 'medium' });
    result.smallWhole = await time(small, undefined);
  } catch (error) {
    result.error = String(error);
  }
  postMessage(result);
};`;

const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>decode</title>'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
let photos: { large: string; small: string } | undefined;
try {
  for (const engine of ALL_ENGINES) {
    const browser = await launchBrowser(engine);
    try {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      photos ??= await makePhotos(page);
      const run = `new Promise((resolve) => {
        const blobOf = (base64) => new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/jpeg' });
        const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(WORKER)}], { type: 'text/javascript' })));
        worker.onmessage = ({ data }) => resolve(data);
        worker.postMessage({ large: blobOf(${JSON.stringify(photos.large)}), small: blobOf(${JSON.stringify(photos.small)}), rounds: ${ROUNDS} });
      })`;
      const result = await page.evaluate((code) => (0, eval)(code) as Promise<unknown>, run);
      const figures = result as Record<string, { ms: number[]; size: string } | string>;
      const line = Object.entries(figures)
        .map(([name, value]) => (typeof value === 'string' ? `${name}: ${value}` : `${name} ${value.size} ${median(value.ms).toFixed(0)} ms (${Math.min(...value.ms).toFixed(0)}-${Math.max(...value.ms).toFixed(0)})`))
        .join(', ');
      console.log(`[decode-scale] ${engine}: photo ${Math.round((photos.large.length * 3) / 4 / 1e3)} kB; ${line}`);
      await page.close();
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
