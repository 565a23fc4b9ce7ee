/**
 * One-off (issue 48): what `resizeImage` costs per photo, and how long it holds the page's main thread, in the
 * image worker and on the page's own thread (no `Worker`: an `OffscreenCanvas` there), in chromium, Firefox and
 * WebKitGTK (@upbeam/test-browser; `UPBEAM_BROWSERS` narrows them). The photo: 4,000 x 3,000 pixels (12 MP) of
 * noise encoded as JPEG in the page; resized to 2,048 pixels as JPEG at 0.85. Per mode: the wall time of the
 * transform and the longest gap between two ticks of a `setTimeout(0)` loop on the page meanwhile (the longest
 * the page could not answer), medians of `IMAGE_ROUNDS` (default 5) rounds, modes in turn. Prints a Markdown
 * table (for bench/notes/image-transform.md): `pnpm --filter @upbeam/bench exec tsx src/image-transform/run.ts`.
 */
import '../lib/loopback-guard';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ENGINES, launchBrowser } from '@upbeam/test-browser';
import { BENCH_DIR } from '../lib/paths';

const ROUNDS = Number(process.env.IMAGE_ROUNDS ?? 5);
const DIST = join(BENCH_DIR, '..', 'packages', 'upload-client', 'dist');

const files = new Map<string, Buffer>();
for (const name of await readdir(DIST)) if (name.endsWith('.js')) files.set(`/${name}`, await readFile(join(DIST, name)));
const server = createServer((request, response) => {
  const body = files.get(request.url!.split('?')[0]!);
  if (body) return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
  response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>image transform</title>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** Sent as text (tsx names inner functions with a helper the page lacks). */
const MAKE_PHOTO = `async () => {
  const canvas = new OffscreenCanvas(4000, 3000);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(4000, 3000);
  let seed = 0x2f6b3a1d;
  for (let i = 0; i < pixels.data.length; i += 1) {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    pixels.data[i] = (i & 3) === 3 ? 255 : 128 + ((seed & 0xff) >> 2);
  }
  context.putImageData(pixels, 0, 0);
  window.photo = new File([await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })], 'photo.jpg', { type: 'image/jpeg' });
  return window.photo.size;
}`;

const RUN = `async (origin) => {
  const { resizeImage } = await import(origin + '/image.js');
  const transform = resizeImage({ maxWidth: 2048, maxHeight: 2048, type: 'image/jpeg', quality: 0.85 });
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = () => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; if (running) setTimeout(tick, 0); };
  setTimeout(tick, 0);
  const start = performance.now();
  const out = await transform(window.photo, { signal: new AbortController().signal });
  const ms = performance.now() - start;
  running = false;
  return { ms, longest, bytes: out.size };
}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rows: string[] = [];
let photoBytes = 0;
for (const engine of ENGINES) {
  const browser = await launchBrowser(engine);
  try {
    const page = await browser.newPage();
    const samples: Record<'worker' | 'page', { ms: number; longest: number }[]> = { worker: [], page: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of round % 2 === 0 ? (['worker', 'page'] as const) : (['page', 'worker'] as const)) {
        await page.goto(`${origin}/`);
        if (mode === 'page') await page.evaluate(() => Reflect.deleteProperty(window, 'Worker'), null);
        photoBytes = await page.evaluate((source) => (0, eval)(source)(), MAKE_PHOTO);
        samples[mode].push(await page.evaluate(([source, at]) => (0, eval)(source)(at), [RUN, origin] as const));
      }
    }
    for (const mode of ['worker', 'page'] as const) {
      const ms = median(samples[mode].map((s) => s.ms));
      const longest = median(samples[mode].map((s) => s.longest));
      rows.push(`| ${engine} | ${mode === 'worker' ? 'image worker' : "page's thread (no Worker)"} | ${Math.round(ms)} | ${Math.round(longest)} |`);
    }
  } finally {
    await browser.close();
  }
}
server.close();
console.log(`Photo: 4,000 x 3,000 JPEG, ${(photoBytes / 1e6).toFixed(1)} MB; ${ROUNDS} rounds, medians.\n`);
console.log('| browser | where | transform, ms | longest main-thread gap, ms |');
console.log('|---|---|---|---|');
console.log(rows.join('\n'));
