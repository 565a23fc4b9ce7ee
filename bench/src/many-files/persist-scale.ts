/**
 * Benchmark (opt-in, `bench:persist-scale`): a tracker with `persist: true` at tens of thousands of files, in
 * chromium (`persist-scale-page.ts`): files of 4 KiB handed over in batches of 1,000 as a folder drop hands them,
 * kept in IndexedDB, then the page reloaded and the kept queue restored. Per count and round, on a fresh page:
 * the same files without `persist` (the heap baseline), with `persist` (time until every file shows `kept`,
 * IndexedDB transactions, long tasks, the page's heap after a garbage collection), and the reload (time until the
 * list holds every file, transactions, long tasks until the restore is quiet). No network: the tracker's uploader
 * never settles. `PERSIST_SCALE_COUNTS` (default 50000), `PERSIST_SCALE_ROUNDS` (default 1),
 * `PERSIST_SCALE_TIMEOUT_S` (a phase's bound, default 300). Writes `results/persist-scale.json` and RESULTS.md.
 * Build first: `pnpm --filter @upbeam/upload-client build`.
 */
import '../lib/loopback-guard';
import os from 'node:os';
import { join } from 'node:path';
import { launchCdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { describeMachine } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { buildPage, startPageServer } from '../upload/page-server';
import { writeReport } from '../report';
import type { PersistPhase } from './persist-scale-page';

const PAGE_DIR = join(TMP_DIR, 'persist-scale');
const FILE_BYTES = 4096;
const COUNTS = (process.env.PERSIST_SCALE_COUNTS ?? '50000').split(',').map(Number);
const ROUNDS = Number(process.env.PERSIST_SCALE_ROUNDS ?? 1);
const TIMEOUT_MS = Number(process.env.PERSIST_SCALE_TIMEOUT_S ?? 300) * 1000;

export interface PersistScaleSample {
  count: number;
  load: number;
  /** Without `persist`: the same files tracked (the heap baseline). */
  plain: PersistPhase & { heapBytes: number };
  /** With `persist`: until every file shows `kept`. */
  keep: PersistPhase & { heapBytes: number };
  /** After the reload: until the list holds every file and the restore is quiet. */
  restore: PersistPhase & { heapBytes: number };
  /** Heap before any file (fresh page, after a garbage collection). */
  emptyHeapBytes: number;
}

export interface PersistScaleResult extends ResultMeta {
  command: string;
  settings: string;
  samples: PersistScaleSample[];
}

async function heapBytes(page: CdpPage): Promise<number> {
  await page.send('HeapProfiler.collectGarbage');
  const usage = await page.send<{ usedSize: number }>('Runtime.getHeapUsage');
  return usage.usedSize;
}

async function loaded(page: CdpPage): Promise<void> {
  for (let waited = 0; !(await page.evaluate<boolean>(`typeof window.benchPersistKeep === 'function'`).catch(() => false)); waited += 50) {
    if (waited > 15_000) throw new Error('the persist-scale page did not load');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runPersistScaleBench(): Promise<PersistScaleResult> {
  const started = performance.now();
  await buildPage({ entry: join(BENCH_DIR, 'src', 'many-files', 'persist-scale-page.ts'), outDir: PAGE_DIR });
  const server = await startPageServer(PAGE_DIR);
  const browser = await launchCdpBrowser();
  const samples: PersistScaleSample[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const count of COUNTS) {
        const load = Math.round(os.loadavg()[0]! * 10) / 10;
        const run = JSON.stringify({ count, bytes: FILE_BYTES, timeoutMs: TIMEOUT_MS });
        let page = await browser.newPage(`${server.origin}/`);
        await loaded(page);
        await page.evaluate('window.benchPersistClear()');
        const emptyHeapBytes = await heapBytes(page);
        const plainPhase = await page.evaluate<PersistPhase>(`window.benchPersistKeep({ ...${run}, persist: false })`);
        const plain = { ...plainPhase, heapBytes: await heapBytes(page) };
        await page.close();
        page = await browser.newPage(`${server.origin}/`);
        await loaded(page);
        const keepPhase = await page.evaluate<PersistPhase>(`window.benchPersistKeep({ ...${run}, persist: true })`);
        const keep = { ...keepPhase, heapBytes: await heapBytes(page) };
        console.log(`[persist-scale] ${count} files: kept ${keep.files} in ${(keep.ms / 1000).toFixed(1)} s, ${keep.transactions.readwrite} rw transactions, long tasks ${keep.longTasks.count} (max ${keep.longTasks.maxMs} ms)`);
        await page.send('Page.reload');
        await loaded(page);
        const restorePhase = await page.evaluate<PersistPhase>(`window.benchPersistRestore(${run})`);
        const restore = { ...restorePhase, heapBytes: await heapBytes(page) };
        console.log(`[persist-scale] ${count} files: restored ${restore.files} in ${(restore.ms / 1000).toFixed(1)} s, ${restore.transactions.readonly}+${restore.transactions.readwrite} transactions, long tasks ${restore.longTasks.count} (max ${restore.longTasks.maxMs} ms)`);
        await page.evaluate('window.benchPersistClear()').catch(() => {});
        await page.close();
        samples.push({ count, load, plain, keep, restore, emptyHeapBytes });
      }
    }
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }
  const result: PersistScaleResult = {
    machine: describeMachine(['@upbeam/upload-client'], { chromium: browser.version }),
    seconds: (performance.now() - started) / 1000,
    command: `flock /tmp/h45/bench.lock env PERSIST_SCALE_COUNTS=${COUNTS.join(',')} PERSIST_SCALE_ROUNDS=${ROUNDS} pnpm --filter @upbeam/bench bench:persist-scale`,
    settings:
      `headless Debian chromium over a bare DevTools pipe; files of ${FILE_BYTES} bytes added in batches of 1,000 (one task each); ` +
      `the tracker's uploader never settles (no network); ${ROUNDS} round(s)`,
    samples,
  };
  await saveResult('persist-scale', result);
  return result;
}

await runPersistScaleBench();
console.log(`[persist-scale] wrote ${await writeReport()}`);
