/**
 * What each of the three test browsers decodes and encodes, for the table of docs/guide/images.md:
 * `pnpm exec tsx scripts/probe-image-codecs.ts` (Debian's chromium, Firefox ESR and WebKitGTK through
 * @upbeam/test-browser; `UPBEAM_BROWSERS` narrows them). Samples of 8 x 8 pixels made with sharp; a type
 * "decodes" when `createImageBitmap(blob)` resolves, "encodes" when `OffscreenCanvas.convertToBlob({ type })`
 * answers that type (a browser that cannot encode it answers PNG). HEIC is not probed: sharp's libvips has no
 * HEVC encoder to make a sample.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENGINES, launchBrowser } from '@upbeam/test-browser';
import sharp from 'sharp';

const formats = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'] as const;
const base = sharp({ create: { width: 8, height: 8, channels: 3, background: '#c03' } });
const samples = Object.fromEntries(
  await Promise.all(formats.map(async (format) => [format, (await base.clone().toFormat(format).toBuffer()).toString('base64')] as const)),
);

const server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>probe</title>'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/**
 * Runs in the page: what decodes, what encodes on the page and in a worker. Sent as text and run with eval (tsx
 * would name its inner functions with a helper the page lacks).
 */
const PROBE = `async (samples) => {
  const decodes = {};
  for (const [format, base64] of Object.entries(samples)) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    try {
      (await createImageBitmap(new Blob([bytes], { type: 'image/' + format }), { imageOrientation: 'from-image' })).close();
      decodes[format] = true;
    } catch {
      decodes[format] = false;
    }
  }
  const types = ['image/jpeg', 'image/webp', 'image/avif', 'image/png'];
  const encodesIn = async (canvas) => {
    canvas.getContext('2d').fillRect(0, 0, 4, 4);
    const out = {};
    for (const type of types) out[type] = (await canvas.convertToBlob({ type, quality: 0.8 })).type === type;
    return out;
  };
  const page = typeof OffscreenCanvas === 'undefined' ? null : await encodesIn(new OffscreenCanvas(8, 8));
  const source = 'onmessage = async () => {' +
    "if (typeof OffscreenCanvas === 'undefined') return postMessage(null);" +
    "const canvas = new OffscreenCanvas(8, 8); canvas.getContext('2d').fillRect(0, 0, 4, 4); const out = {};" +
    'for (const type of ' + JSON.stringify(types) + ') out[type] = (await canvas.convertToBlob({ type, quality: 0.8 })).type === type;' +
    'postMessage(out); };';
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
  const inWorker = await new Promise((resolve) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.onerror = () => resolve('error');
    worker.postMessage(0);
  });
  worker.terminate();
  return { userAgent: navigator.userAgent, decodes, page, inWorker };
}`;

for (const engine of ENGINES) {
  const browser = await launchBrowser(engine);
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    console.log(engine, JSON.stringify(await page.evaluate(([probe, samples]) => (0, eval)(probe)(samples), [PROBE, samples] as const), null, 1));
  } finally {
    await browser.close();
  }
}
server.close();
