/**
 * Probe (issue 47, item 3): how many React commits and animation frames the `useS3Upload` hook's page makes
 * per progress update during a multipart upload, beside the bare floor drawing its progress. Counts only, no
 * timing judged: the page's `requestAnimationFrame` calls and the distinct frames they ran in, the DOM
 * commits (MutationObserver batches on the list), the frames that drew a commit, and the XHR upload progress
 * events. `tsx src/upload/probe-frames.ts [MiB=128] [rounds=3]` (s3rver, chromium at /usr/bin/chromium).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildPageWithVite } from './page-build-vite';
import { startPageServer } from './page-server';
import { startS3rverTarget } from './targets';

const MiB = 1024 * 1024;
const mib = Number(process.argv[2] ?? 128);
const rounds = Number(process.argv[3] ?? 3);

const COUNTERS = `(() => {
  const c = (window.__frames = { rafCalls: 0, rafFrames: 0, commits: 0, drawnFrames: 0, progressEvents: 0, commitTimes: [], rafTimes: [] });
  let lastFrame = -1, dirty = false;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => { c.rafCalls++; return raf((t) => { if (t !== lastFrame) { lastFrame = t; c.rafFrames++; c.rafTimes.push(t); } cb(t); }); };
  new MutationObserver(() => { c.commits++; c.commitTimes.push(performance.now()); if (!dirty) { dirty = true; raf(() => { dirty = false; c.drawnFrames++; }); } })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const add = XMLHttpRequestUpload.prototype.addEventListener;
  XMLHttpRequestUpload.prototype.addEventListener = function (type, fn, o) {
    if (type === 'progress') add.call(this, type, () => c.progressEvents++);
    return add.call(this, type, fn, o);
  };
  const desc = Object.getOwnPropertyDescriptor(XMLHttpRequestEventTarget.prototype, 'onprogress');
  Object.defineProperty(XMLHttpRequestEventTarget.prototype, 'onprogress', { ...desc, set(fn) { if (this instanceof XMLHttpRequestUpload && fn) add.call(this, 'progress', () => c.progressEvents++); desc.set.call(this, fn); } });
})();`;

const modes = {
  'upbeam-presigned-multipart': { client: 'upbeam', strategy: 'presigned', multipartThreshold: 0, partSize: 5 * MiB, queueSize: 4 },
  'floor-xhr-multipart-drawn': { client: 'floor-multipart', partSize: 5 * MiB, queueSize: 4, progress: true, draw: true },
} as const;

const dir = await mkdtemp(join(tmpdir(), 'upbeam-probe-frames-'));
const outDir = join(dir, 'page');
await buildPageWithVite({ outDir });
const server = await startPageServer(outDir);
const target = await startS3rverTarget(server.origin, 'probe');
server.setTarget(target);
const file = join('/dev/shm', `probe-frames-${mib}.bin`);
await writeFile(file, Buffer.alloc(mib * MiB, 7));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (let round = 0; round < rounds; round++) {
    for (const [id, input] of Object.entries(modes)) {
      const page = await browser.newPage();
      await page.addInitScript(COUNTERS);
      await page.goto(server.origin + '/');
      await page.waitForFunction(() => typeof (window as any).benchUpload === 'function');
      await page.setInputFiles('#file', file);
      await page.evaluate(() => Object.assign((window as any).__frames, { rafCalls: 0, rafFrames: 0, commits: 0, drawnFrames: 0, progressEvents: 0, commitTimes: [], rafTimes: [] }));
      const result = await page.evaluate((i) => (window as any).benchUpload(i), input as any);
      const c = await page.evaluate(() => (window as any).__frames);
      const gaps = c.commitTimes.slice(1).map((t: number, k: number) => t - c.commitTimes[k]).sort((a: number, b: number) => a - b);
      console.log(
        JSON.stringify({ round: round + 1, id, ms: Math.round(result.ms), progressEvents: c.progressEvents, commits: c.commits, drawnFrames: c.drawnFrames, rafCalls: c.rafCalls, rafFrames: c.rafFrames, rafFramesPerCommit: +(c.rafFrames / c.commits).toFixed(2), commitGapP50: Math.round(gaps[gaps.length >> 1] ?? 0) }),
      );
      await page.close();
    }
  }
} finally {
  await browser.close();
  await target.close();
  await server.close();
  await rm(file, { force: true });
  await rm(dir, { recursive: true, force: true });
}
