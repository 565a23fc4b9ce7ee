/**
 * Benchmark: many small files from chromium to s3rver (~20 KB each, 1,000 and 5,000 files, 3 and 6 at once):
 * files per second and the main thread's long tasks of each client, beside the floor, a bare XHR loop doing
 * the same presigned PUTs (twice: preparing with `fetch`, and with XHR as Upbeam does; each round divides by the
 * faster), in the same rounds. Clients: the floors, `UploadTracker` (nothing rendered),
 * `useS3Upload` rendering a plain list of memoized rows, a list of ids whose rows read their own file (with
 * `content-visibility`, or virtualized by TanStack Virtual), and the components' `UploadList` (see page.tsx).
 *
 * With `MANY_FILES_BEFORE_CLIENT=<another build of packages/upload-client>` (its `dist/` built), the tracker
 * and the hook list run a second time against that build (modes `*-before`), for a before/after in one run.
 * `MANY_FILES_BEFORE_REACT=<a folder holding another build's packages/upload-react/dist>` does the same for
 * `@upbeam/upload-react` (its `dist/` copied there is enough: its own imports resolve from this checkout's
 * package); either or both. `BENCH_BEFORE_ROOT=<another checkout, built>` takes upload-protocol, -client and -react
 * from that checkout (`lib/before-build.ts`); the modes then run in a new order every round. Every run records the
 * CPU time of chromium's processes (`clientCpuSeconds`), which the before/after report pairs round by round.
 *
 * `runManyFilesBench({ growthOnly: true })` (`bench:growth`, opt-in) times only a batch joining the React lists:
 * no upload runs (the hook's uploads go to a stand-in that never settles), so the list's growth is measured
 * without the network's noise: how long until `files` is whole, and the tasks over 50 ms meanwhile.
 * `MANY_FILES_TRACE=<mode ids>` traces those runs (chromium's `toplevel` category, `upload/page-trace.ts`): the
 * page's main-thread tasks by CPU (thread) time beside their wall time, the measure of long tasks that a busy
 * machine does not stretch. `MANY_FILES_BUSY_PROCESSES=<n>` runs n CPU-bound Node processes beside the browser
 * for the whole run: the busy machine of an upload (two cores shared with the storage) without its network.
 */
import os from 'node:os';
import { build } from 'esbuild';
import { join } from 'node:path';
import { beforeBuildsOf, beforeEsbuildPlugin, beforeRoot, beforeRunOf, type BeforeRun } from '../lib/before-build';
import { startBusyProcesses } from '../lib/busy-processes';
import { launchCdpBrowser, type CdpBrowser } from '../lib/cdp-browser';
import { treeCpuSeconds } from '../lib/cpu-time';
import { envList } from '../lib/env-list';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { describeMachine, packageVersion } from '../lib/machine';
import { saveResult, type ResultMeta } from '../lib/results';
import { roundOrder } from '../lib/round-order';
import { median } from '../lib/stats';
import { buildPage, startPageServer, type PageServer } from '../upload/page-server';
import { startS3rverTarget } from '../upload/targets';
import type { LongFrame, LongTasks } from '../upload/long-tasks';
import { startProfile, stopProfile, type ProfileSummary } from '../upload/page-profile';
import { startTrace, stopTrace, type TaskTimes } from '../upload/page-trace';
import { treeRssBytes } from '../lib/tree-memory';
import { startDiscardTarget } from './discard-storage';
import type { ManyFilesClient, ManyFilesResult, ManyFilesRun, PhotoFigures } from './page';
import { RUN_STARTED_MARK } from './run-started';

const S3RVER_VERSION = packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3'));
const PAGES_DIR = join(TMP_DIR, 'many-files');

/** ~20 KB a file, as in the issue's measurement (MB = 10^6 bytes). */
const FILE_BYTES = 20_000;

/** Upper bound of one run: what is not stored by then is cancelled, and the run counts what was. */
const TIMEOUT_MS = Number(process.env.MANY_FILES_TIMEOUT_S ?? 240) * 1000;

/** Files of the uncounted warm-up run of each mode (first page, first connections, first bucket access). */
const WARM_UP_FILES = 60;

/** Photo runs: 20 photos warm up (80 MB), and a run is bounded to 150 s (three modes stay under 10 minutes a round). */
const PHOTO_WARM_UP_FILES = 20;
const PHOTO_TIMEOUT_MS = 150_000;

/** Upper bound of the CPU-bound processes of `MANY_FILES_BUSY_PROCESSES` (they end with the run, or by then). */
const BUSY_MOST_SECONDS = 1800;

export interface ManyFilesMode {
  id: string;
  label: string;
  client: ManyFilesClient;
  /** The page's build: `after` (this checkout) or `before` (`MANY_FILES_BEFORE_CLIENT`, `MANY_FILES_BEFORE_REACT`). */
  build: 'after' | 'before';
}

const MODES: ManyFilesMode[] = [
  { id: 'floor', label: 'floor: bare XHR loop (prepare with `fetch`, one PUT each)', client: 'floor', build: 'after' },
  // The same loop, its preparation request sent as Upbeam sends it (XHR, not fetch). Neither is faster every
  // round, so each round divides by the faster of the two: the ceiling is the best the browser did.
  { id: 'floor-xhr-prepare', label: 'floor: the same loop, preparing with XHR', client: 'floor-xhr-prepare', build: 'after' },
  // The floor of a list's long tasks (not of files/s): the same loop drawing the hook list's rows with DOM calls.
  {
    id: 'floor-list',
    label: 'floor of a list: the bare loop beside the same rows as the plain list, drawn with DOM calls (no framework)',
    client: 'floor-list',
    build: 'after',
  },
  { id: 'tracker', label: '`UploadTracker`, nothing rendered', client: 'tracker', build: 'after' },
  { id: 'hook-list', label: '`useS3Upload`, a plain list of memoized rows', client: 'hook-list', build: 'after' },
  {
    id: 'hook-list-cv',
    label: '`useS3Upload`, memoized rows with CSS `content-visibility: auto`',
    client: 'hook-list-cv',
    build: 'after',
  },
  {
    id: 'hook-list-contained',
    label: '`useS3Upload`, memoized rows contained (each `contain: strict` at a fixed height, the list `contain: layout style`)',
    client: 'hook-list-contained',
    build: 'after',
  },
  {
    id: 'ids-list',
    label: '`useS3Upload`, a list of ids (`useTrackedIds`), each row reading its file (`useTrackedFile`, `content-visibility: auto`)',
    client: 'ids-list',
    build: 'after',
  },
  {
    id: 'ids-list-virtual',
    label: 'as `ids-list`, the rows virtualized by TanStack Virtual (only the rows in view in the DOM), no `content-visibility`',
    client: 'ids-list-virtual',
    build: 'after',
  },
  { id: 'components', label: '`UploadList` of `@upbeam/upload-react/components` (with its stylesheet)', client: 'components', build: 'after' },
];

const BEFORE_MODES: ManyFilesMode[] = [
  { id: 'tracker-before', label: '`UploadTracker`, nothing rendered (before)', client: 'tracker', build: 'before' },
  { id: 'hook-list-before', label: '`useS3Upload`, memoized rows (before)', client: 'hook-list', build: 'before' },
  {
    id: 'hook-list-cv-before',
    label: '`useS3Upload`, memoized rows with CSS `content-visibility: auto` (before)',
    client: 'hook-list-cv',
    build: 'before',
  },
  {
    id: 'hook-list-contained-before',
    label: '`useS3Upload`, memoized rows contained (before)',
    client: 'hook-list-contained',
    build: 'before',
  },
  {
    id: 'ids-list-before',
    label: '`useS3Upload`, a list of ids, each row reading its file (`content-visibility: auto`) (before)',
    client: 'ids-list',
    build: 'before',
  },
  { id: 'components-before', label: '`UploadList` of `@upbeam/upload-react/components` (before)', client: 'components', build: 'before' },
];

function envNumbers(name: string): number[] | undefined {
  return process.env[name]?.split(',').map((value) => Number(value.trim())).filter((value) => value > 0);
}

export interface ManyFilesSample {
  done?: number;
  failed?: number;
  seconds?: number;
  /** Files stored per second (a run cut at the time limit counts what it stored). */
  filesPerSecond?: number;
  longTasks?: LongTasks;
  /** The longest animation frames over 50 ms, split into script, style and layout, rendering (chromium's Long Animation Frames). */
  longFrames?: LongFrame[];
  /** 1-minute load average when the run started (2 = both cores busy). */
  load?: number;
  /** CPU seconds of chromium's processes (all of them) from the files handed to the client to the last one ended. */
  clientCpuSeconds?: number;
  /** React clients: seconds until `files` held every file (it grows some rows a frame). */
  filesWholeSeconds?: number;
  /** With `MANY_FILES_PROFILE=<mode ids>`: where the page's main thread spent the run. */
  profile?: ProfileSummary;
  /** With `MANY_FILES_TRACE=<mode ids>`: the page's main-thread tasks by CPU (thread) time and by wall time. */
  taskTimes?: TaskTimes;
  /** Photo runs: the page's figures, chromium's resident memory (all its processes, sampled every 250 ms), MB/s sent. */
  photo?: PhotoFigures & { rssPeakBytes: number; rssEndBytes: number; rssStartBytes: number; megabytesPerSecond: number };
  error?: string;
}

export interface ManyFilesCell {
  count: number;
  concurrency: number;
  mode: string;
  samples: ManyFilesSample[];
  median?: {
    filesPerSecond: number;
    /** Median over the rounds of this mode's files/s divided by the faster floor's in the same round. */
    ratioToFloor?: number;
    /** Long tasks per run (median), the longest of all runs (ms), and runs cut at the time limit. */
    longTaskCount: number;
    longTaskMaxMs: number;
    cut: number;
    /** React clients: seconds until `files` held every file (median). */
    filesWholeSeconds?: number;
    /** Traced runs: tasks whose CPU time passed 50 ms (median per run) and the longest CPU time of all (ms). */
    cpuLongTaskCount?: number;
    cpuLongTaskMaxMs?: number;
  };
}

export interface ManyFilesResultFile extends ResultMeta {
  settings: string;
  fileBytes: number;
  modes: ManyFilesMode[];
  cells: ManyFilesCell[];
  /** With `BENCH_BEFORE_ROOT`: the other checkout, its commit, and the command that ran. */
  before?: BeforeRun;
}

async function runOnce(
  browser: CdpBrowser,
  server: PageServer,
  mode: ManyFilesMode,
  run: Omit<ManyFilesRun, 'client'>,
  { profileName, trace = false }: { profileName?: string; trace?: boolean } = {},
): Promise<ManyFilesSample> {
  const target = run.growthOnly ? undefined : run.photos ? await startDiscardTarget(server.origin) : await startS3rverTarget(server.origin, S3RVER_VERSION);
  if (target) server.setTarget(target);
  const page = await browser.newPage(`${server.origin}/${mode.build}/`);
  const rss = { start: treeRssBytes(browser.pid), peak: 0 };
  const sampling = run.photos ? setInterval(() => (rss.peak = Math.max(rss.peak, treeRssBytes(browser.pid))), 250) : undefined;
  try {
    for (let waited = 0; !(await page.evaluate<boolean>(`typeof window.benchManyFiles === 'function'`).catch(() => false)); waited += 50) {
      if (waited > 15_000) throw new Error('the benchmark page did not load');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (profileName) await startProfile(page);
    const tracing = trace ? await startTrace(page) : undefined;
    const cpuBefore = treeCpuSeconds(browser.pid);
    const result = await page.evaluate<ManyFilesResult>(`window.benchManyFiles(${JSON.stringify({ ...run, client: mode.client })})`);
    const clientCpuSeconds = treeCpuSeconds(browser.pid) - cpuBefore;
    const taskTimes = tracing ? await stopTrace(page, tracing, { fromMark: RUN_STARTED_MARK }) : undefined;
    const profile = profileName ? await stopProfile(page, profileName) : undefined;
    const seconds = result.ms / 1000;
    clearInterval(sampling);
    const rssEndBytes = treeRssBytes(browser.pid);
    const photo = result.photo && {
      ...result.photo,
      rssStartBytes: rss.start,
      rssPeakBytes: Math.max(rss.peak, rssEndBytes),
      rssEndBytes,
      megabytesPerSecond: (result.done * result.photo.photoBytes) / 1e6 / seconds,
    };
    return {
      ...(photo && { photo }),
      done: result.done,
      failed: result.failed,
      seconds,
      filesPerSecond: result.done / seconds,
      longTasks: result.longTasks,
      longFrames: result.longFrames,
      clientCpuSeconds,
      ...(result.filesWholeMs !== undefined && { filesWholeSeconds: result.filesWholeMs / 1000 }),
      ...(profile ? { profile } : {}),
      ...(taskTimes ? { taskTimes } : {}),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error) };
  } finally {
    clearInterval(sampling);
    await page.close().catch(() => {});
    await target?.close().catch(() => {});
  }
}

/** The floors each round divides by: the faster of them in that round is the browser's ceiling. */
const FLOOR_MODES = ['floor', 'floor-xhr-prepare'];

/** Each round's faster floor (files/s), from the floors' samples in round order. */
function fasterFloor(floors: ManyFilesSample[][]): (number | undefined)[] {
  const rounds = Math.max(0, ...floors.map((samples) => samples.length));
  return Array.from({ length: rounds }, (_, round) => {
    const speeds = floors.map((samples) => samples[round]?.filesPerSecond).filter((speed): speed is number => speed !== undefined);
    return speeds.length > 0 ? Math.max(...speeds) : undefined;
  });
}

function summarize(samples: ManyFilesSample[], floor: (number | undefined)[], count: number): ManyFilesCell['median'] {
  const good = samples.filter((sample) => sample.error === undefined);
  if (good.length === 0) return undefined;
  const whole = good.flatMap((sample) => (sample.filesWholeSeconds === undefined ? [] : [sample.filesWholeSeconds]));
  const traced = good.flatMap((sample) => (sample.taskTimes ? [sample.taskTimes] : []));
  const ratios = samples.flatMap((sample, round) => {
    const base = floor[round];
    return sample.filesPerSecond !== undefined && base ? [sample.filesPerSecond / base] : [];
  });
  return {
    filesPerSecond: median(good.map((sample) => sample.filesPerSecond!)),
    ...(ratios.length > 0 ? { ratioToFloor: median(ratios) } : {}),
    longTaskCount: median(good.map((sample) => sample.longTasks!.count)),
    longTaskMaxMs: Math.max(...good.map((sample) => sample.longTasks!.maxMs)),
    cut: good.filter((sample) => sample.done! + sample.failed! < count).length,
    ...(whole.length > 0 && { filesWholeSeconds: median(whole) }),
    ...(traced.length > 0 && {
      cpuLongTaskCount: median(traced.map((times) => times.overFiftyCpu)),
      cpuLongTaskMaxMs: Math.max(...traced.map((times) => times.maxCpuMs)),
    }),
  };
}

export function describeManyFilesSample(sample: ManyFilesSample): string {
  if (sample.error) return `FAILED ${sample.error}`;
  const profile = sample.profile
    ? `, main thread busy ${sample.profile.busyMs} of ${sample.profile.wallMs} ms: ${sample.profile.top
        .slice(0, 6)
        .map((entry) => `${entry.frame} ${entry.ms} ms`)
        .join(', ')}`
    : '';
  const frames = sample.longFrames?.length
    ? `; longest frames: ${sample.longFrames
        .slice(0, 4)
        .map((frame) => `at ${frame.at} ms ${frame.ms} ms (script ${frame.scriptMs} [${frame.scripts.map((script) => `${script.invoker} ${script.ms}`).join(', ')}], style+layout ${frame.styleLayoutMs}, render ${frame.renderMs})`)
        .join('; ')}`
    : '';
  const cpu = sample.taskTimes
    ? `by CPU time ${sample.taskTimes.overFiftyCpu} over 50 ms (max ${sample.taskTimes.maxCpuMs} ms; by wall time ${sample.taskTimes.overFiftyWall}, ` +
      `max ${sample.taskTimes.maxWallMs} ms; most CPU: ${(sample.taskTimes.longestByCpu ?? []).map((task) => `${task.cpuMs} of ${task.wallMs} ms`).join(', ')}), `
    : '';
  const MB = 1e6;
  const photo = sample.photo
    ? `${sample.photo.megabytesPerSecond.toFixed(0)} MB/s, first picture ${sample.photo.firstPictureMs?.toFixed(0) ?? '-'} ms, rows in view pictured ${sample.photo.firstRowsMs?.toFixed(0) ?? '-'} ms, ` +
      `${sample.photo.picturedRows} rows pictured, JS heap peak ${(sample.photo.heapPeakBytes / MB).toFixed(0)} MB (end ${(sample.photo.heapEndBytes / MB).toFixed(0)}), ` +
      `chromium RSS ${(sample.photo.rssStartBytes / MB).toFixed(0)} -> peak ${(sample.photo.rssPeakBytes / MB).toFixed(0)} MB (end ${(sample.photo.rssEndBytes / MB).toFixed(0)}), `
    : '';
  return (
    photo +
    `${sample.filesPerSecond!.toFixed(1)} files/s (${sample.done} stored, ${sample.failed} failed in ${sample.seconds!.toFixed(1)} s), ` +
    `long tasks ${sample.longTasks!.count} (max ${sample.longTasks!.maxMs} ms), ${cpu}` +
    `${sample.clientCpuSeconds === undefined ? '' : `client CPU ${sample.clientCpuSeconds.toFixed(2)} s, `}` +
    `${sample.filesWholeSeconds === undefined ? '' : `\`files\` whole after ${sample.filesWholeSeconds.toFixed(1)} s, `}load ${sample.load}${profile}${frames}`
  );
}

/** The React clients, the only ones whose list grows (`growthOnly` runs these). */
const GROWING_CLIENTS: ManyFilesClient[] = ['hook-list', 'hook-list-cv', 'hook-list-contained', 'ids-list', 'ids-list-virtual', 'components'];

/**
 * Photo runs (`bench:previews`): the page scrolls this many screens, one a second (a reader's pace; at 250 ms the
 * rows left before their turn and few previews were made: bench/notes/previews.md), once the first rows show their
 * pictures, then back to the top.
 */
const PHOTO_SCROLL = {
  scrollSteps: Number(process.env.MANY_FILES_SCROLL_STEPS ?? 40),
  scrollEveryMs: Number(process.env.MANY_FILES_SCROLL_EVERY_MS ?? 1000),
};

/** Photo runs: the modes, unless MANY_FILES_MODES names others (the floor, and the components: with a before build, the old thumbnail too). */
const PHOTO_MODES = ['floor', 'components', 'components-before'];

export async function runManyFilesBench({ growthOnly = false, photos = false }: { growthOnly?: boolean; photos?: boolean } = {}): Promise<ManyFilesResultFile> {
  const started = performance.now();
  const counts = envNumbers('MANY_FILES_COUNTS') ?? (growthOnly || photos ? [5000] : [1000, 5000]);
  // Growth-only: the files "in flight" only wait (nothing is sent), so one concurrency is enough.
  const concurrencies = growthOnly ? [3] : (envNumbers('MANY_FILES_CONCURRENCY') ?? (photos ? [3] : [3, 6]));
  const rounds = Number(process.env.MANY_FILES_ROUNDS ?? (growthOnly ? 6 : photos ? 1 : 2));
  const timeoutMs = process.env.MANY_FILES_TIMEOUT_S || !photos ? TIMEOUT_MS : PHOTO_TIMEOUT_MS;
  const busyProcesses = Number(process.env.MANY_FILES_BUSY_PROCESSES ?? 0);
  const otherRoot = beforeRoot();
  const beforeBuilds: Record<string, string> = otherRoot ? beforeBuildsOf(otherRoot) : {};
  if (process.env.MANY_FILES_BEFORE_CLIENT) beforeBuilds['upload-client'] = process.env.MANY_FILES_BEFORE_CLIENT;
  if (process.env.MANY_FILES_BEFORE_REACT) beforeBuilds['upload-react'] = process.env.MANY_FILES_BEFORE_REACT;
  const before = Object.keys(beforeBuilds).length > 0;
  const only = envList('MANY_FILES_MODES');
  const profiled = new Set(envList('MANY_FILES_PROFILE') ?? []);
  const traced = new Set(envList('MANY_FILES_TRACE') ?? []);
  // Growth-only runs have no floor (nothing is uploaded); upload runs always have both floors. A mode named
  // brings its before variant, where there is a before build.
  const wanted = (mode: ManyFilesMode) =>
    photos
      ? (only ?? PHOTO_MODES).includes(mode.id)
      : growthOnly
      ? GROWING_CLIENTS.includes(mode.client) && (!only || only.includes(mode.id))
      : !only || only.includes(mode.id) || only.includes(mode.id.replace(/-before$/, '')) || FLOOR_MODES.includes(mode.id);
  const modes = [...MODES, ...(before ? BEFORE_MODES : [])].filter(wanted);
  const entry = join(BENCH_DIR, 'src', 'many-files', 'page.tsx');
  await buildPage({ entry, outDir: join(PAGES_DIR, 'after') });
  // The previews' module Worker, beside the chunk that starts it (`new URL('./preview-worker.js', import.meta.url)`),
  // as an app's bundler emits it (esbuild follows no such URL).
  await build({
    entryPoints: { 'preview-worker': join(BENCH_DIR, '..', 'packages', 'upload-client', 'dist', 'preview-worker.js') },
    bundle: true,
    minify: true,
    format: 'esm',
    outdir: join(PAGES_DIR, 'after'),
    logLevel: 'error',
  });
  if (before) await buildPage({ entry, outDir: join(PAGES_DIR, 'before'), plugins: [beforeEsbuildPlugin(beforeBuilds)] });
  const server = await startPageServer(PAGES_DIR);
  const browser = await launchCdpBrowser();
  const cells: ManyFilesCell[] = [];
  const loads: number[] = [];
  const stopBusy = busyProcesses > 0 ? startBusyProcesses(busyProcesses, BUSY_MOST_SECONDS) : () => {};
  try {
    for (const mode of modes) {
      const warmUp = { count: photos ? PHOTO_WARM_UP_FILES : WARM_UP_FILES, bytes: FILE_BYTES, concurrency: 3, timeoutMs: 60_000, growthOnly };
      const sample = await runOnce(browser, server, mode, photos ? { ...warmUp, photos: { scrollSteps: 0, scrollEveryMs: 250 } } : warmUp);
      if (sample.error) console.log(`[many-files] warm-up ${mode.id}: FAILED ${sample.error}`);
    }
    for (const count of counts) {
      for (const concurrency of concurrencies) {
        const byMode = new Map(modes.map((mode) => [mode.id, [] as ManyFilesSample[]]));
        for (let round = 0; round < rounds; round++) {
          // Modes take turns, starting one further each round, so that a noisy moment hits all alike; with a
          // before build, in a new order every round, so that no variant always follows the same mode.
          const order = before ? roundOrder(modes, round) : modes.map((_, index) => modes[(index + round) % modes.length]!);
          for (const mode of order) {
            const load = Math.round(os.loadavg()[0]! * 10) / 10;
            loads.push(load);
            const profileName = profiled.has(mode.id) ? `many-files-${count}-c${concurrency}-${mode.id}-round${round + 1}` : undefined;
            const run = { count, bytes: FILE_BYTES, concurrency, timeoutMs, growthOnly, ...(photos && { photos: PHOTO_SCROLL }) };
            const sample = { ...(await runOnce(browser, server, mode, run, { profileName, trace: traced.has(mode.id) })), load };
            byMode.get(mode.id)!.push(sample);
            console.log(`[many-files] ${count} files, ${concurrency} at once, round ${round + 1}/${rounds} ${mode.id}: ${describeManyFilesSample(sample)}`);
          }
        }
        const floor = fasterFloor(FLOOR_MODES.map((id) => byMode.get(id) ?? []));
        for (const mode of modes) {
          const samples = byMode.get(mode.id)!;
          const summary = summarize(samples, floor, count);
          cells.push({ count, concurrency, mode: mode.id, samples, ...(summary ? { median: summary } : {}) });
        }
        await save();
      }
    }
    return await save();
  } finally {
    stopBusy();
    await browser.close().catch(() => {});
    await server.close().catch(() => {});
  }

  /** Writes what has been measured so far (after each table row group, so that a cut run keeps its figures). */
  async function save(): Promise<ManyFilesResultFile> {
    const result: ManyFilesResultFile = {
      machine: describeMachine(['react', 'react-dom'], { '@20minutes/s3rver': S3RVER_VERSION, chromium: browser.version }),
      seconds: (performance.now() - started) / 1000,
      settings: photos
        ? `headless Debian chromium over a bare DevTools pipe (800 × 600 window); every file the same JPEG of 6000 × 4000 pixels made in the page ` +
          `(one blob referenced by every File); uploaded with presigned PUTs to a storage stand-in on another 127.0.0.1 port that reads ` +
          `each body and keeps nothing (discard-storage.ts: 20 GB does not fit /dev/shm); once the rows in view show their pictures the page ` +
          `scrolls ${PHOTO_SCROLL.scrollSteps} screens, one every ${PHOTO_SCROLL.scrollEveryMs} ms, then back to the top; ${rounds} round${rounds === 1 ? '' : 's'}, ` +
          `modes taking turns; each run bounded to ${timeoutMs / 1000} s (what is left then is cancelled); memory: chromium's processes' ` +
          `resident memory summed (VmRSS, sampled every 250 ms) and the page's \`performance.memory.usedJSHeapSize\`; load average ` +
          `(1 min, 2 = both cores busy) during the run: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${median(loads).toFixed(1)}`
        : growthOnly
        ? 'headless Debian chromium over a bare DevTools pipe; files made in the page from one random buffer, handed to the hook ' +
          'once the page is idle; no upload (a stand-in that never settles); time from the files handed to the hook to the first ' +
          `render whose \`files\` held them all; ${rounds} round${rounds === 1 ? '' : 's'}, modes taking turns; ` +
          (busyProcesses > 0 ? `${busyProcesses} CPU-bound Node process${busyProcesses === 1 ? '' : 'es'} beside the browser (a busy machine); ` : '') +
          `load average ` +
          `(1 min, 2 = both cores busy) during the run: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${median(loads).toFixed(1)}`
        : 'headless Debian chromium over a bare DevTools pipe, page and storage (s3rver, objects in /dev/shm, a fresh one per run) on ' +
          'different 127.0.0.1 ports (CORS); files made in the page from one random buffer; time from the files handed to the ' +
          `client to the last one ended; ${rounds} round${rounds === 1 ? '' : 's'}, modes taking turns; each run bounded to ${TIMEOUT_MS / 1000} s ` +
          `(what is left then is cancelled, and files/s counts what was stored); load average (1 min, 2 = both cores busy) during ` +
          `the run: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${median(loads).toFixed(1)}`,
      fileBytes: photos ? (cells.flatMap((cell) => cell.samples).find((sample) => sample.photo)?.photo?.photoBytes ?? 0) : FILE_BYTES,
      modes,
      cells,
      ...(otherRoot ? { before: beforeRunOf(otherRoot, 'bench:many-files', 'MANY_FILES_') } : {}),
    };
    // A run against another checkout is a before/after of its own: it leaves the many-files table as it was.
    await saveResult(photos ? 'many-files-previews' : growthOnly ? 'many-files-growth' : otherRoot ? 'many-files-before-after' : 'many-files', result);
    return result;
  }
}
