/**
 * Benchmark (opt-in, `bench:persist-scale`): a tracker with `persist: true` at tens of thousands of files, in
 * chromium (`persist-scale-page.ts`): files of 4 KiB handed over in batches of 1,000 as a folder drop hands them,
 * kept in IndexedDB, then the page reloaded and the kept queue restored. Per count and round, on a fresh page:
 * the same files without `persist` (the heap baseline), with `persist` (time until every file shows `kept`,
 * IndexedDB transactions, long tasks, the page's heap after a garbage collection), and the reload (time until the
 * list holds every file, transactions, long tasks until the restore is quiet). No network: the tracker's uploader
 * never settles. `PERSIST_SCALE_COUNTS` (default 50000), `PERSIST_SCALE_ROUNDS` (default 1),
 * `PERSIST_SCALE_TIMEOUT_S` (a phase's bound, default 300). Writes `results/persist-scale.json` and RESULTS.md.
 * `PERSIST_PROFILE=1`: a CPU profile of the page's main thread across each restore (DevTools `Profiler`, 200 µs
 * samples), printed: the functions with the most self time, and the longest busy stretch (the long task) with its
 * heaviest stack (nothing written to RESULTS.md).
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
const PROFILE = process.env.PERSIST_PROFILE === '1';

interface PageProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Prints where a restore's main thread went: self time by function, and the longest busy stretch (the long task) with its heaviest stack. */
function printRestoreProfile(profile: PageProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (id: number): string => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'}${url ? ` (${url.replace(/^.*\//, '')}:${lineNumber + 1})` : ''}`;
  };
  const selfMs = (from: number, to: number): [string, number][] => {
    const times = new Map<string, number>();
    for (let index = from; index < to; index++) {
      const frame = name(profile.samples[index]!);
      times.set(frame, (times.get(frame) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
    }
    return [...times].filter(([frame]) => !frame.startsWith('(idle)')).sort((a, b) => b[1] - a[1]);
  };
  const busy = selfMs(0, profile.samples.length);
  console.log(`[persist-scale] restore profile: ${busy.reduce((sum, [, ms]) => sum + ms, 0).toFixed(0)} ms busy; most self time:`);
  for (const [frame, ms] of busy.slice(0, 15)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${frame}`);
  // The long task: the longest run of samples with no idle one among them.
  let best = { from: 0, to: 0, ms: 0 };
  for (let from = 0; from < profile.samples.length; ) {
    let to = from;
    let ms = 0;
    while (to < profile.samples.length && byId.get(profile.samples[to]!)!.callFrame.functionName !== '(idle)') {
      ms += (profile.timeDeltas[to + 1] ?? 0) / 1000;
      to += 1;
    }
    if (ms > best.ms) best = { from, to, ms };
    from = to + 1;
  }
  console.log(`[persist-scale] longest busy stretch: ${best.ms.toFixed(1)} ms; self time in it:`);
  for (const [frame, ms] of selfMs(best.from, best.to).slice(0, 12)) console.log(`  ${ms.toFixed(1).padStart(7)} ms  ${frame}`);
  // Its heaviest stack: from the root, the child under which most of the stretch's samples fall.
  const inclusive = new Map<number, number>();
  for (let index = best.from; index < best.to; index++) {
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    for (let id: number | undefined = profile.samples[index]; id !== undefined; id = parent.get(id)) inclusive.set(id, (inclusive.get(id) ?? 0) + ms);
  }
  console.log('[persist-scale] its heaviest stack (inclusive ms):');
  let at: number | undefined = profile.nodes.find((node) => !parent.has(node.id))?.id;
  for (let depth = 0; at !== undefined; depth++) {
    console.log(`  ${(inclusive.get(at) ?? 0).toFixed(1).padStart(7)} ms ${' '.repeat(depth)}${name(at)}`);
    const children: number[] = (byId.get(at)!.children ?? []).filter((child) => (inclusive.get(child) ?? 0) > 0);
    at = children.sort((a, b) => inclusive.get(b)! - inclusive.get(a)!)[0];
  }
}

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
        if (PROFILE) {
          await page.send('Profiler.enable');
          await page.send('Profiler.setSamplingInterval', { interval: 200 });
          await page.send('Profiler.start');
        }
        const restorePhase = await page.evaluate<PersistPhase>(`window.benchPersistRestore(${run})`);
        if (PROFILE) printRestoreProfile((await page.send<{ profile: PageProfile }>('Profiler.stop')).profile);
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
  // A profiled run is not a measurement of record: its figures stay out of the results and RESULTS.md.
  if (!PROFILE) await saveResult('persist-scale', result);
  return result;
}

await runPersistScaleBench();
if (!PROFILE) console.log(`[persist-scale] wrote ${await writeReport()}`);
