/**
 * What a row's preview costs to show, by way of showing it: the same 60 × 40 bitmap drawn in 1,000 rows, each row
 * with its own copy in a `bitmaprenderer` canvas (what the components do), drawn into a 2D canvas, or encoded once
 * per row as a small JPEG shown by an `<img>` through an object URL. Chromium (the many-files runs' browser):
 * its processes' resident memory summed (VmRSS) and the page's JS heap, after the rows are drawn and after they
 * have all been scrolled through (an `<img>` is decoded when first painted), less a page with the rows and no
 * picture. A fresh page each, 3 rounds taking turns, medians. `tsx src/many-files/row-memory.ts` (opt-in;
 * bench/notes/previews.md keeps its figures).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchCdpBrowser } from '../lib/cdp-browser';
import { median } from '../lib/stats';
import { treeRssBytes } from '../lib/tree-memory';

const ROWS = 1000;
const ROUNDS = 3;
const WAYS = ['none', 'bitmaprenderer', '2d', 'blob-img'] as const;

const PAGE = `<!doctype html><meta charset="utf-8"><title>rows</title>
<style>body{margin:0} #list{height:100vh;overflow:auto} .row{display:flex;gap:8px;height:48px;align-items:center}
.row canvas,.row img,.row span{width:40px;height:40px;object-fit:cover;background:#ddd}</style>
<div id="list"></div>
<script>
window.draw = async (way, rows) => {
  const source = new OffscreenCanvas(60, 40);
  const context = source.getContext('2d');
  context.fillStyle = '#0ea5e9'; context.fillRect(0, 0, 60, 40);
  context.fillStyle = '#f59e0b'; context.fillRect(10, 10, 30, 20);
  const shared = await createImageBitmap(source);
  const list = document.getElementById('list');
  for (let index = 0; index < rows; index++) {
    const row = document.createElement('div');
    row.className = 'row';
    let picture;
    if (way === 'bitmaprenderer') {
      picture = document.createElement('canvas');
      const copy = await createImageBitmap(shared);
      picture.width = copy.width; picture.height = copy.height;
      picture.getContext('bitmaprenderer').transferFromImageBitmap(copy);
    } else if (way === '2d') {
      picture = document.createElement('canvas');
      picture.width = 60; picture.height = 40;
      picture.getContext('2d').drawImage(shared, 0, 0);
    } else if (way === 'blob-img') {
      const canvas = new OffscreenCanvas(60, 40);
      canvas.getContext('2d').drawImage(shared, 0, 0);
      picture = document.createElement('img');
      picture.src = URL.createObjectURL(await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 }));
    } else picture = document.createElement('span');
    row.append(picture, 'photo-' + index + '.jpg');
    list.append(row);
  }
  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  await frames();
  const heap = () => performance.memory.usedJSHeapSize;
  return { heapDrawn: heap() };
};
window.scrollAll = async () => {
  const list = document.getElementById('list');
  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  for (let top = 0; top < list.scrollHeight; top += list.clientHeight) { list.scrollTop = top; await frames(); }
  list.scrollTop = 0; await frames();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { heapScrolled: performance.memory.usedJSHeapSize };
};
</script>`;

const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchCdpBrowser();
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
const figures = new Map<string, { drawn: number[]; scrolled: number[]; heap: number[] }>(WAYS.map((way) => [way, { drawn: [], scrolled: [], heap: [] }]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of WAYS) {
      const page = await browser.newPage(`${origin}/`);
      for (let waited = 0; !(await page.evaluate<boolean>(`typeof window.draw === 'function'`).catch(() => false)); waited += 50) {
        if (waited > 10_000) throw new Error('the page did not load');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { heapDrawn } = await page.evaluate<{ heapDrawn: number }>(`window.draw(${JSON.stringify(way)}, ${ROWS})`);
      await settle();
      const drawn = treeRssBytes(browser.pid);
      await page.evaluate(`window.scrollAll()`);
      await settle();
      const scrolled = treeRssBytes(browser.pid);
      const entry = figures.get(way)!;
      entry.drawn.push(drawn);
      entry.scrolled.push(scrolled);
      entry.heap.push(heapDrawn);
      await page.close();
      await settle();
    }
  }
} finally {
  await browser.close();
  server.close();
}
const base = figures.get('none')!;
for (const way of WAYS) {
  const { drawn, scrolled, heap } = figures.get(way)!;
  const perRow = (values: number[], of: number[]) => (median(values) - median(of)) / ROWS;
  console.log(
    `[row-memory] ${way}: chromium RSS drawn ${(median(drawn) / 1e6).toFixed(0)} MB, scrolled ${(median(scrolled) / 1e6).toFixed(0)} MB; ` +
      `per row beyond no picture: drawn ${(perRow(drawn, base.drawn) / 1e3).toFixed(1)} kB, scrolled ${(perRow(scrolled, base.scrolled) / 1e3).toFixed(1)} kB, ` +
      `JS heap ${(perRow(heap, base.heap) / 1e3).toFixed(2)} kB (${browser.version})`,
  );
}
