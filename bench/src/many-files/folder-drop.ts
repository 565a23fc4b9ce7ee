/**
 * Benchmark (issue 47): a folder of 50,000 files of 4 KiB dropped as one folder in chromium, uploaded to s3rver
 * (local-s3's storage) 3 at once by a bare XHR loop (the floor: draws nothing), by `<Uploader>`, and by a plain
 * `useS3Upload` list virtualized with TanStack Virtual (folder-drop-page.tsx), in the same rounds.
 *
 * The drop is real: the runner drops a folder on disk onto the client's drop zone with DevTools'
 * `Input.dispatchDragEvent` (`files: [folder]`), and chromium gives the page the `FileSystemDirectoryEntry` tree
 * a drag from the desktop gives (a page cannot build one). Per run: the page's heap after a garbage collection
 * (DevTools `HeapProfiler.collectGarbage`, `Runtime.getHeapUsage`) before the drop; files per second from the
 * drop over a window of `FOLDER_WINDOW_S` seconds (a whole folder of 50,000 takes ~9 minutes a run at the floor's
 * ~90 files/s on this machine: each run is cut there, what is left cancelled, and files/s counts what was stored
 * in the window); the first row drawn after the drop; the long tasks from the drop to the stop; Cancel all (the
 * click's task, and to the next frame), the heap with every file still tracked; Clear list, the heap after it.
 * The floor's heap with its files held is the reference: "heap per file beyond the File objects" is a client's
 * heap with every file tracked, less the floor's with every file held, over the file count.
 *
 * `FOLDER_FILES` (50000), `FOLDER_WINDOW_S` (60), `FOLDER_ROUNDS` (3), `FOLDER_CONCURRENCY` (3),
 * `FOLDER_MODES` (floor,uploader,hook-virtual), `FOLDER_PROFILE=<modes>` (a CPU profile of those modes' runs,
 * `upload/page-profile.ts`, printed; such a run does not replace results/many-files-folder.json).
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { launchCdpBrowser, type CdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { treeCpuSeconds } from '../lib/cpu-time';
import { envList } from '../lib/env-list';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';
import { buildPage, startPageServer, type PageServer } from '../upload/page-server';
import { startProfile, stopProfile, type ProfileSummary } from '../upload/page-profile';
import { startS3rverTarget } from '../upload/targets';
import type { FolderDropClear, FolderDropClient, FolderDropState, FolderDropStop } from './folder-drop-page';

const S3RVER_VERSION = packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3'));
const PAGE_OUT = join(TMP_DIR, 'folder-drop');
const FILE_BYTES = 4096;
/** Files a subfolder holds: the folder is `drop/part-NN/file-NNNNN.bin` (names unique over the tree: the floor keys by name). */
const FILES_A_FOLDER = 1000;

export interface FolderDropSample {
  round: number;
  mode: FolderDropClient;
  load: number;
  error?: string;
  /** Seconds of the window, files stored in it, files/s. */
  seconds?: number;
  done?: number;
  filesPerSecond?: number;
  firstRowMs?: number;
  allFoundMs?: number;
  longTasks?: FolderDropStop['longTasks'];
  longest?: FolderDropStop['longest'];
  cancelTaskMs?: number;
  cancelFrameMs?: number;
  clearTaskMs?: number;
  clearFrameMs?: number;
  /** The page's V8 heap after a garbage collection (bytes): before the drop, every file held, after Clear list. */
  heapBeforeBytes?: number;
  heapHeldBytes?: number;
  heapClearedBytes?: number;
  /** CPU seconds of chromium's processes over the window. */
  clientCpuSeconds?: number;
  profile?: ProfileSummary;
}

export interface FolderDropResultFile extends ResultMeta {
  settings: string;
  files: number;
  fileBytes: number;
  concurrency: number;
  windowSeconds: number;
  samples: FolderDropSample[];
}

/** The folder on /dev/shm, made once (`count` files of 4 KiB, one random buffer). */
async function makeFolder(count: number): Promise<string> {
  const root = join('/dev/shm', `upbeam-folder-${count}`);
  const drop = join(root, 'drop');
  const folders = Math.ceil(count / FILES_A_FOLDER);
  const last = join(drop, `part-${String(folders - 1).padStart(2, '0')}`);
  const made = await readdir(last).then((names) => names.length === count - (folders - 1) * FILES_A_FOLDER, () => false);
  if (made) return drop;
  const bytes = new Uint8Array(FILE_BYTES);
  crypto.getRandomValues(bytes);
  for (let folder = 0; folder < folders; folder++) {
    const directory = join(drop, `part-${String(folder).padStart(2, '0')}`);
    await mkdir(directory, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let index = folder * FILES_A_FOLDER; index < Math.min(count, (folder + 1) * FILES_A_FOLDER); index++) {
      writes.push(writeFile(join(directory, `file-${String(index).padStart(5, '0')}.bin`), bytes));
    }
    await Promise.all(writes);
  }
  return drop;
}

async function heapBytes(page: CdpPage): Promise<number> {
  await page.send('HeapProfiler.collectGarbage');
  await page.send('HeapProfiler.collectGarbage');
  const { usedSize } = await page.send<{ usedSize: number }>('Runtime.getHeapUsage');
  return usedSize;
}

async function dropFolder(page: CdpPage, at: { x: number; y: number }, folder: string): Promise<void> {
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) await page.send('Input.dispatchDragEvent', { type, x: at.x, y: at.y, data });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runOnce(
  browser: CdpBrowser,
  server: PageServer,
  folder: string,
  { mode, round, count, concurrency, windowMs, profile }: { mode: FolderDropClient; round: number; count: number; concurrency: number; windowMs: number; profile: boolean },
): Promise<FolderDropSample> {
  const load = Math.round(os.loadavg()[0]! * 10) / 10;
  const target = await startS3rverTarget(server.origin, S3RVER_VERSION);
  server.setTarget(target);
  const page = await browser.newPage(`${server.origin}/`);
  try {
    for (let waited = 0; !(await page.evaluate<boolean>(`typeof window.folderDrop === 'object'`).catch(() => false)); waited += 50) {
      if (waited > 15_000) throw new Error('the benchmark page did not load');
      await sleep(50);
    }
    const at = await page.evaluate<{ x: number; y: number }>(`window.folderDrop.setup(${JSON.stringify({ client: mode, concurrency, count })})`);
    const heapBeforeBytes = await heapBytes(page);
    if (profile) await startProfile(page);
    const cpuBefore = treeCpuSeconds(browser.pid);
    await dropFolder(page, at, folder);
    const started = performance.now();
    let state: FolderDropState;
    for (;;) {
      await sleep(250);
      state = await page.evaluate<FolderDropState>('window.folderDrop.state()');
      if (state.done + state.failed >= count || performance.now() - started >= windowMs) break;
    }
    const stop = await page.evaluate<FolderDropStop>('window.folderDrop.stop()');
    const clientCpuSeconds = treeCpuSeconds(browser.pid) - cpuBefore;
    const summary = profile ? await stopProfile(page, `folder-drop-${count}-${mode}-round${round}`) : undefined;
    const after = await page.evaluate<FolderDropState>('window.folderDrop.state()');
    const heapHeldBytes = await heapBytes(page);
    const clear = await page.evaluate<FolderDropClear>('window.folderDrop.clear()');
    const heapClearedBytes = await heapBytes(page);
    const seconds = stop.ms / 1000;
    return {
      round,
      mode,
      load,
      seconds,
      done: stop.done,
      filesPerSecond: stop.done / seconds,
      firstRowMs: after.firstRowMs,
      allFoundMs: after.allFoundMs,
      longTasks: stop.longTasks,
      longest: stop.longest,
      cancelTaskMs: stop.cancelTaskMs,
      cancelFrameMs: stop.cancelFrameMs,
      ...clear,
      heapBeforeBytes,
      heapHeldBytes,
      heapClearedBytes,
      clientCpuSeconds,
      ...(summary ? { profile: summary } : {}),
    };
  } catch (error) {
    return { round, mode, load, error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error) };
  } finally {
    await page.close().catch(() => {});
    await target.close().catch(() => {});
  }
}

const ms = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(0)} ms`);
const MB = 1e6;

export function describeFolderDropSample(sample: FolderDropSample): string {
  if (sample.error) return `FAILED ${sample.error}`;
  return (
    `${sample.filesPerSecond!.toFixed(1)} files/s (${sample.done} stored in ${sample.seconds!.toFixed(1)} s), first row ${ms(sample.firstRowMs)}, ` +
    `all ${sample.allFoundMs === undefined ? 'not' : ''} held ${ms(sample.allFoundMs)}, long tasks ${sample.longTasks!.count} (max ${sample.longTasks!.maxMs} ms; at+ms ${(sample.longest ?? []).map((task) => `${task.at}+${task.ms}`).join(' ')}), ` +
    `cancel all ${ms(sample.cancelTaskMs)} (frame ${ms(sample.cancelFrameMs)}), clear ${ms(sample.clearTaskMs)} (frame ${ms(sample.clearFrameMs)}), ` +
    `heap ${(sample.heapBeforeBytes! / MB).toFixed(1)} -> ${(sample.heapHeldBytes! / MB).toFixed(1)} -> ${(sample.heapClearedBytes! / MB).toFixed(1)} MB, ` +
    `client CPU ${sample.clientCpuSeconds!.toFixed(1)} s, load ${sample.load}` +
    (sample.profile
      ? `; main thread busy ${sample.profile.busyMs} of ${sample.profile.wallMs} ms: ${sample.profile.top.map((entry) => `${entry.frame} ${entry.ms} ms`).join(', ')}`
      : '')
  );
}

export async function runFolderDropBench(): Promise<FolderDropResultFile> {
  const started = performance.now();
  const count = Number(process.env.FOLDER_FILES ?? 50_000);
  const windowMs = Number(process.env.FOLDER_WINDOW_S ?? 60) * 1000;
  const rounds = Number(process.env.FOLDER_ROUNDS ?? 3);
  const concurrency = Number(process.env.FOLDER_CONCURRENCY ?? 3);
  const modes = (envList('FOLDER_MODES') ?? ['floor', 'uploader', 'hook-virtual']) as FolderDropClient[];
  const profiled = new Set(envList('FOLDER_PROFILE') ?? []);
  const folder = await makeFolder(count);
  await buildPage({ entry: join(BENCH_DIR, 'src', 'many-files', 'folder-drop-page.tsx'), outDir: PAGE_OUT });
  const server = await startPageServer(PAGE_OUT);
  const browser = await launchCdpBrowser();
  const samples: FolderDropSample[] = [];
  const loads: number[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      // Modes take turns, one further each round.
      for (let index = 0; index < modes.length; index++) {
        const mode = modes[(index + round - 1) % modes.length]!;
        const sample = await runOnce(browser, server, folder, { mode, round, count, concurrency, windowMs, profile: profiled.has(mode) });
        loads.push(sample.load);
        samples.push(sample);
        console.log(`[folder-drop] ${count} files, round ${round}/${rounds} ${mode}: ${describeFolderDropSample(sample)}`);
        await save();
      }
    }
    return await save();
  } finally {
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }

  async function save(): Promise<FolderDropResultFile> {
    const result: FolderDropResultFile = {
      machine: describeMachine(['react', 'react-dom', '@tanstack/react-virtual'], { '@20minutes/s3rver': S3RVER_VERSION, chromium: browser.version }),
      seconds: (performance.now() - started) / 1000,
      settings:
        `headless Debian chromium over a bare DevTools pipe; a folder of ${count.toLocaleString('en')} files of ${FILE_BYTES} bytes on /dev/shm ` +
        `(${FILES_A_FOLDER.toLocaleString('en')} a subfolder) dropped with Input.dispatchDragEvent (a real FileSystemDirectoryEntry tree); ` +
        `page and storage (s3rver, objects in /dev/shm, a fresh one per run) on different 127.0.0.1 ports; ${concurrency} at once; ` +
        `each run cut ${windowMs / 1000} s after the drop (files/s = files stored by then over that time), then Cancel all and Clear list; ` +
        `${rounds} round${rounds === 1 ? '' : 's'}, modes taking turns; heap: V8's used heap after two forced collections; load average ` +
        `(1 min, 2 = both cores busy) at the runs' starts: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${loads.length ? median(loads).toFixed(1) : '-'}`,
      files: count,
      fileBytes: FILE_BYTES,
      concurrency,
      windowSeconds: windowMs / 1000,
      samples,
    };
    // A profiled run (its timings perturbed by the profiler) prints its figures and leaves the table's result alone.
    if (profiled.size === 0) await saveResult('many-files-folder', result);
    return result;
  }
}
