/**
 * Benchmark 3, upload throughput and memory in chromium: MB/s of a file picked on a page and sent to
 * storage by each client, beside two floors measured in the same rounds: `curl -T` of the whole file (one
 * PutObject) and curl sending the same parts as the engine (same part size and concurrency) to presigned
 * UploadPart URLs (see curl-floor.ts). For each page upload: the page's heap (JS objects + ArrayBuffer
 * backing stores, CDP `Runtime.getHeapUsage`, sampled every 100 ms) and the main thread's long tasks (Long
 * Tasks API). Modes take turns within each round, so a noisy moment hits all alike.
 *
 * With `BENCH_BEFORE_ROOT=<another checkout, built>` the page is built a second time against that checkout's
 * packages (`lib/before-build.ts`) and every Upbeam page mode that runs also runs on it (`<id>-before`, as many rounds
 * as its own, in the same rounds' random order); the result is saved apart (`upload-before-after`), for the report's
 * paired client CPU per upload.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { beforeBuildsOf, beforeRoot, beforeVitePlugin, beforeRunOf, type BeforeRun } from '../lib/before-build';
import { launchCdpBrowser, type CdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { coreLayoutFromEnv, useCoreLayout, type CoreLayout } from '../lib/cores';
import { reapedChildrenCpuSeconds, treeCpuSeconds, treeCpuSecondsByKind } from '../lib/cpu-time';
import { envList } from '../lib/env-list';
import { BENCH_DIR } from '../lib/paths';
import { describeMachine, packageVersion, toolVersion } from '../lib/machine';
import { saveResult, type ResultMeta } from '../lib/results';
import { QUIET_DEFAULTS, waitForQuietMachine, type QuietWait } from '../lib/quiet-machine';
import { roundOrder } from '../lib/round-order';
import { median } from '../lib/stats';
import { curlMultipart, curlPut, cutParts, type CurlSample, type PartFiles } from './curl-floor';
import type { LongTasks, PageUpload, PageUploadResult } from './page';
import { startProfile, stopProfile, type ProfileSummary } from './page-profile';
import type { PageRequest, PartTimeline } from './part-timeline';
import { startTrace, stopTrace, type TaskTimes } from './page-trace';
import type { EndpointCall } from './server-log';
import { buildPageWithVite } from './page-build-vite';
import { PAGE_DIR, startPageServer, type PageServer } from './page-server';
import { radosgwTarget, startRadosgwProcess, startS3rverTarget, type Target, type TargetName } from './targets';

const MiB = 1024 * 1024;
const S3RVER_VERSION = packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3'));

/** Part size and parts at once of a multipart upload (the engine's, and its curl floor's). */
export interface PartSettings {
  partSize: number;
  queueSize: number;
}

/**
 * The engine's multipart defaults, which the curl multipart floor copies (SPEC 9: 5 MB parts, 4 at once).
 * A mode that sets other part settings gets a floor of its own.
 */
export const ENGINE_PARTS: PartSettings = { partSize: 5 * MiB, queueSize: 4 };

export interface UploadMode {
  id: string;
  label: string;
  kind: 'curl-put' | 'curl-multipart' | 'page';
  /** Page modes: what the page is asked to do. */
  page?: PageUpload;
  /** Multipart modes (curl or page): the part settings, for the floor each one is compared with. */
  parts?: PartSettings;
  /** Largest file this mode runs with, in MiB (next-s3-upload reads the whole file into memory). */
  maxMiB?: number;
  /** Runs only when named in `UPLOAD_MODES` (a question for one run, not the table). */
  optIn?: boolean;
  /** Page modes: `before` runs on the page built against `BENCH_BEFORE_ROOT`'s packages (served at `/before/`). */
  build?: 'before';
}

/** Bigger parts, for the question whether the engine's cost is per part or per byte. */
const BIG_PARTS: PartSettings = { partSize: 16 * MiB, queueSize: 4 };

/** `multipartThreshold` values that force one PUT or multipart whatever the file size (bytes). */
const ALWAYS_PUT = 5 * 1024 * MiB;
const ALWAYS_MULTIPART = 0;

export const UPLOAD_MODES: UploadMode[] = [
  { id: 'curl', kind: 'curl-put', label: 'floor: `curl -T` to the presigned URL' },
  {
    id: 'curl-multipart',
    kind: 'curl-multipart',
    label: `floor: curl multipart, presigned UploadPart URLs (${ENGINE_PARTS.partSize / MiB} MiB parts, ${ENGINE_PARTS.queueSize} at once)`,
    parts: ENGINE_PARTS,
  },
  { id: 'floor-xhr', kind: 'page', label: 'floor in the browser: 28-line XHR PUT', page: { client: 'floor' } },
  // The same bare PUT signed as the temporary-token strategy signs it (SigV4 in headers, with its object
  // headers): what storage and the browser do with a header-signed PUT, apart from the client.
  {
    id: 'floor-xhr-token',
    kind: 'page',
    label: 'floor in the browser: the same bare XHR PUT, prepared and signed as the temporary-token strategy (SigV4 headers)',
    page: { client: 'floor-token' },
  },
  {
    id: 'floor-xhr-multipart',
    kind: 'page',
    label: `floor in the browser: bare XHR multipart (\`Blob.slice()\` parts, ${ENGINE_PARTS.partSize / MiB} MiB, ${ENGINE_PARTS.queueSize} at once)`,
    page: { client: 'floor-multipart', ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  // The same bare multipart prepared and signed as the temporary-token strategy (SigV4 in headers, each part
  // signed just before it is sent): what storage and the browser do with header-signed parts, apart from the client.
  {
    id: 'floor-xhr-token-multipart',
    kind: 'page',
    label: 'floor in the browser: the same bare XHR multipart, prepared and signed as the temporary-token strategy (SigV4 headers)',
    page: { client: 'floor-token-multipart', ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  {
    id: 'floor-xhr-multipart-progress',
    kind: 'page',
    label: 'floor in the browser: bare XHR multipart with an upload progress listener on each part',
    page: { client: 'floor-multipart', progress: true, ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
    optIn: true,
  },
  // The floor of a page that shows its progress: the same bare multipart, its bytes drawn as the hook's page
  // draws Upbeam's (a `<progress>` and the bytes, at most 20 times a second). Beside the hook (which draws) it
  // shows what the drawing costs on these 2 cores, which the storage shares; the undrawn pair is below.
  {
    id: 'floor-xhr-multipart-drawn',
    kind: 'page',
    label: 'floor in the browser: the same bare XHR multipart, its progress drawn as the hook draws Upbeam\'s',
    page: { client: 'floor-multipart', progress: true, draw: true, ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  {
    id: 'upbeam-presigned-put',
    kind: 'page',
    label: 'Upbeam presigned, one PUT',
    page: { client: 'upbeam', strategy: 'presigned', multipartThreshold: ALWAYS_PUT },
  },
  {
    id: 'upbeam-presigned-multipart',
    kind: 'page',
    label: 'Upbeam presigned, multipart',
    page: { client: 'upbeam', strategy: 'presigned', multipartThreshold: ALWAYS_MULTIPART, ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  // Is the gap to the floor the engine's or the page's drawing? The same upload through `uploadFile`, its
  // progress kept and never drawn, as the bare floor draws nothing.
  {
    id: 'upbeam-presigned-multipart-unrendered',
    kind: 'page',
    label: 'Upbeam presigned, multipart, through `uploadFile` with nothing drawn',
    page: { client: 'upbeam-unrendered', strategy: 'presigned', multipartThreshold: ALWAYS_MULTIPART, ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  {
    id: 'upbeam-presigned-multipart-unsigned-create',
    kind: 'page',
    label: 'Upbeam presigned, multipart, the first parts signed by `sign-parts` (a `create` answer without `parts`, as before they were added)',
    page: { client: 'upbeam', strategy: 'presigned', multipartThreshold: ALWAYS_MULTIPART, endpoint: '/api/upbeam-unsigned-create', ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
    optIn: true,
  },
  {
    id: 'upbeam-token-put',
    kind: 'page',
    label: 'Upbeam temporary-token, one PUT',
    page: { client: 'upbeam', strategy: 'temporary-token', multipartThreshold: ALWAYS_PUT },
  },
  // The same, with the hook made with `strategy: 'temporary-token'` (as an app with one strategy makes it): the
  // tracker loads the strategy's chunk with the page, not at the first upload.
  {
    id: 'upbeam-token-put-declared',
    kind: 'page',
    label: "Upbeam temporary-token, one PUT, the hook made with `strategy: 'temporary-token'`",
    page: { client: 'upbeam', strategy: 'temporary-token', multipartThreshold: ALWAYS_PUT, declared: true },
    optIn: true,
  },
  {
    id: 'upbeam-token-multipart',
    kind: 'page',
    label: 'Upbeam temporary-token, multipart',
    page: { client: 'upbeam', strategy: 'temporary-token', multipartThreshold: ALWAYS_MULTIPART, ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  // The cost of checksums: the same uploads with `checksum: 'md5'` (each part hashed in the page, streamed,
  // and sent with its Content-MD5, which radosgw verifies and s3rver ignores). Compare each with the mode
  // above it of the same name without `-md5`: the throughput ratio is the checksum's cost.
  {
    id: 'upbeam-presigned-put-md5',
    kind: 'page',
    label: "Upbeam presigned, one PUT, checksum: 'md5'",
    page: { client: 'upbeam', strategy: 'presigned', multipartThreshold: ALWAYS_PUT, checksum: 'md5' },
  },
  {
    id: 'upbeam-presigned-multipart-md5',
    kind: 'page',
    label: "Upbeam presigned, multipart, checksum: 'md5'",
    page: { client: 'upbeam', strategy: 'presigned', multipartThreshold: ALWAYS_MULTIPART, checksum: 'md5', ...ENGINE_PARTS },
    parts: ENGINE_PARTS,
  },
  {
    id: 'curl-multipart-p16',
    kind: 'curl-multipart',
    label: 'floor: curl multipart, 16 MiB parts, 4 at once',
    parts: BIG_PARTS,
    optIn: true,
  },
  {
    id: 'upbeam-presigned-multipart-p16',
    kind: 'page',
    label: 'Upbeam presigned, multipart, 16 MiB parts',
    page: { client: 'upbeam', strategy: 'presigned', multipartThreshold: ALWAYS_MULTIPART, ...BIG_PARTS },
    parts: BIG_PARTS,
    optIn: true,
  },
  {
    id: 'next-presigned',
    kind: 'page',
    label: 'next-s3-upload `usePresignedUpload` (reads the whole file into memory: 128 MiB only)',
    page: { client: 'next-s3-upload' },
    maxMiB: 128,
  },
];

interface Plan {
  target: TargetName;
  sizes: number[];
  /** Rounds by file size (MiB): of every mode, and of the {@link PAIRED_MODES}. */
  runs: Record<number, number>;
  pairedRuns: Record<number, number>;
}

/**
 * Rounds by target and file size: a 1 GiB round takes over a minute, and radosgw keeps every object in RAM
 * (each is deleted after its run, and its RADOS objects freed before the next upload): 2 rounds there. A 128 MiB upload
 * takes under a second or two, where storage's own pace varies most between rounds: 9 rounds, for the
 * paired per-round ratios of the report (report-send-loop.ts).
 */
const RUNS: Record<TargetName, Record<number, number>> = { s3rver: { 128: 9, 1024: 3 }, radosgw: { 128: 9, 1024: 2 } };

/**
 * The modes that the targets compare round by round (Upbeam against the bare XHR floors and curl's, single
 * PUT and multipart) run more rounds at 128 MiB: {@link PAIRED_RUNS}, where the other modes stop at
 * {@link RUNS}. The median of 9 paired rounds of one cell moved from 0.79x to 1.09x between runs of the same
 * code on 2026-11-28 (storage's pace changes in phases of several uploads); 30 narrow it
 * (bench/notes/upload-cpu.md, "Where a single PUT loses time, and 30 paired rounds").
 * At 1 GiB, 9: two bare floors with the same work differed 0.65x in a cell of 2 rounds (radosgw), and one paired
 * ratio ranged 0.82-1.15x over 5 (s3rver; both 2026-11-28).
 */
const PAIRED_MODES = new Set([
  'curl',
  'curl-multipart',
  'floor-xhr',
  'floor-xhr-token',
  'floor-xhr-multipart',
  'floor-xhr-token-multipart',
  'upbeam-presigned-put',
  'upbeam-token-put',
  'upbeam-presigned-multipart',
  'upbeam-token-multipart',
]);
const PAIRED_RUNS: Record<number, number> = { 128: 30, 1024: 9 };

/**
 * UPLOAD_PAGE_DELAY_MS: the page server answers every request (the page's files, the preparation endpoint) this
 * many milliseconds late, as an app server a round trip away would; storage stays on loopback. Default 0.
 */
const PAGE_DELAY_MS = Number(process.env.UPLOAD_PAGE_DELAY_MS) || 0;

/**
 * UPLOAD_QUIET_TIMEOUT_S: the longest wait for a quiet machine before each upload (default 20 s). On a machine that
 * other work keeps busy every wait runs out; a paired before/after run (both variants in the same rounds) can wait less.
 */
const QUIET_TIMEOUT_MS = process.env.UPLOAD_QUIET_TIMEOUT_S ? Number(process.env.UPLOAD_QUIET_TIMEOUT_S) * 1000 : QUIET_DEFAULTS.timeoutMs;

/**
 * What runs: 128 MiB and 1 GiB on s3rver and radosgw; 9 rounds at 128 MiB (30 of the paired modes), 3
 * (s3rver) or 2 (radosgw) at 1 GiB (9 of the paired modes). UPLOAD_TARGETS, UPLOAD_SIZES_MIB, UPLOAD_MODES and UPLOAD_RUNS (the rounds
 * of every mode) narrow it for a quick look.
 */
function plan(defaultRuns?: (mib: number) => number): Plan[] {
  const targets = (envList('UPLOAD_TARGETS') ?? ['s3rver', 'radosgw']) as TargetName[];
  const sizes = envList('UPLOAD_SIZES_MIB')?.map(Number) ?? [128, 1024];
  const runsOf = (mib: number) => (process.env.UPLOAD_RUNS ? Number(process.env.UPLOAD_RUNS) : defaultRuns?.(mib));
  return targets.map((target) => ({
    target,
    sizes,
    runs: Object.fromEntries(sizes.map((mib) => [mib, runsOf(mib) ?? RUNS[target][mib] ?? 3])),
    pairedRuns: Object.fromEntries(sizes.map((mib) => [mib, runsOf(mib) ?? PAIRED_RUNS[mib] ?? RUNS[target][mib] ?? 3])),
  }));
}

/**
 * The client-CPU table (`bench:upload-cpu`, issue 47 item 3; results/upload-cpu.json): every cell of the upload
 * table (single PUT and multipart, presigned and temporary-token, each storage and size) as Upbeam's page against
 * the bare XHR floor of the same shape and signing, in paired rounds (all eight modes every round, in a new order
 * each round). {@link CPU_TABLE_RUNS} rounds keep the whole run near 25 minutes on this machine.
 */
export const CPU_TABLE_PAIRS: { mode: string; floor: string; presignedFloor?: string }[] = [
  { mode: 'upbeam-presigned-put', floor: 'floor-xhr' },
  { mode: 'upbeam-token-put', floor: 'floor-xhr-token', presignedFloor: 'floor-xhr' },
  { mode: 'upbeam-presigned-multipart', floor: 'floor-xhr-multipart' },
  { mode: 'upbeam-token-multipart', floor: 'floor-xhr-token-multipart', presignedFloor: 'floor-xhr-multipart' },
];

/**
 * Rounds of the CPU table by file size (MiB). Nine at 128 MiB give a 90 % interval of the median from order statistics
 * (x(2)..x(8), 96.1 %); five at 1 GiB the full range (93.8 %). A round of the eight modes takes ~1 minute at 128 MiB
 * (both storages) and ~2.5 minutes at 1 GiB.
 */
const CPU_TABLE_RUNS: Record<number, number> = { 128: 9, 1024: 5 };

/**
 * The CPU table waits at most this long for a quiet machine (client CPU time is what it judges, not the wall clock).
 * The run of 2026-11-29 waited up to 3 s: with other work on the machine 181 of 224 waits ran out, 9 of its 34 minutes.
 */
const CPU_TABLE_QUIET_TIMEOUT_MS = 1000;

export interface UploadSample {
  seconds?: number;
  mbPerSecond?: number;
  /** Page JS heap before the upload (after a GC) and its peak during it, bytes (objects + ArrayBuffers). */
  heapBefore?: number;
  heapPeak?: number;
  longTasks?: LongTasks;
  /** Page multipart uploads: how the parts followed each other. */
  parts?: PartTimeline;
  /** Page uploads: the endpoint requests the page server answered during the upload, with their storage calls. */
  endpoints?: EndpointCall[];
  /** Traced uploads (`UPLOAD_TRACE`): the page's main-thread tasks by CPU time and wall time. */
  taskTimes?: TaskTimes;
  /** CPU seconds the client (chromium's processes, or curl) and the storage spent on the upload. */
  clientCpuSeconds?: number;
  /** Page uploads: the client's CPU seconds by chromium process (`browser`, `renderer`, `network`, ...). */
  clientCpuByProcess?: Record<string, number>;
  storageCpuSeconds?: number;
  /** Multipart floor: seconds of create + presign, of the parts, of complete. */
  createSeconds?: number;
  partsSeconds?: number;
  completeSeconds?: number;
  /** 1-minute load average when the sample was taken (2 = both cores busy). */
  load?: number;
  /** How long the machine took to be quiet before the upload (ms; `waitForQuietMachine`). */
  quietWaitMs?: number;
  profile?: ProfileSummary;
  error?: string;
}

export interface UploadCell {
  target: TargetName;
  sizeMiB: number;
  mode: string;
  samples: UploadSample[];
  median?: {
    mbPerSecond: number;
    heapPeak?: number;
    heapGrowth?: number;
    /** Largest heap growth of the runs, bytes. */
    heapGrowthMax?: number;
    /** Longest main-thread task over all runs (ms) and the tasks over 50 ms in all runs. */
    longTaskMaxMs?: number;
    longTaskCount?: number;
    /** Medians of the runs' part-to-part gap (p50, p90, ms) and share of busy slots. */
    partGapP50Ms?: number;
    partGapP90Ms?: number;
    slotsBusy?: number;
    /** Medians of the runs' lead-in (call to first part start) and tail (last part end to resolved), ms. */
    leadInMs?: number;
    tailMs?: number;
    /** Medians of the runs' parts span (first start to last end) and mean part time, ms. */
    partsMs?: number;
    partMeanMs?: number;
    createSeconds?: number;
    partsSeconds?: number;
    completeSeconds?: number;
    clientCpuSeconds?: number;
    storageCpuSeconds?: number;
  };
}

export interface UploadResult extends ResultMeta {
  settings: string;
  /** The cores of the client and of the servers (`bench/src/lib/cores.ts`); absent: every process on every core. */
  cores?: CoreLayout;
  targets: Record<string, string>;
  modes: { id: string; label: string; kind: UploadMode['kind']; parts?: PartSettings }[];
  cells: UploadCell[];
  /** With `BENCH_BEFORE_ROOT`: the other checkout, its commit, and the command that ran. */
  before?: BeforeRun;
}

/** Writes `bytes` of random data (not compressible) in 8 MiB blocks. */
export async function makeFile(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'w');
  try {
    for (let written = 0; written < bytes; ) {
      const block = randomBytes(Math.min(8 * MiB, bytes - written));
      await handle.write(block);
      written += block.byteLength;
    }
  } finally {
    await handle.close();
  }
}

function keyOf(url: string, bucket: string): string {
  const path = new URL(url).pathname;
  const prefix = `/${bucket}/`;
  if (!path.startsWith(prefix)) throw new Error(`unexpected object URL ${url}`);
  return decodeURIComponent(path.slice(prefix.length));
}

async function heapNow(page: CdpPage): Promise<number> {
  const usage = await page.send<{ usedSize: number; backingStorageSize?: number }>('Runtime.getHeapUsage');
  return usage.usedSize + (usage.backingStorageSize ?? 0);
}

/** The mode that warms storage up for each file size (one uncounted upload before the size's rounds). */
const CURL_PUT_MODE = UPLOAD_MODES.find((mode) => mode.id === 'curl')!;

/** The warm-up file, in MiB: two parts of the largest part size, and a short third. */
const WARM_UP_MIB = (2 * Math.max(...UPLOAD_MODES.map((mode) => mode.parts?.partSize ?? 0))) / MiB + 1;

/** Upper bound of one upload: 1 GiB at the slowest rate seen here (~25 MB/s) and then some. */
const UPLOAD_TIMEOUT_MS = 240_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms))),
  ]).finally(() => clearTimeout(timer!));
}

/** How one page upload runs besides its mode: bounded in time, optionally profiled, optionally checked further. */
export interface PageRunOptions {
  timeoutMs: number;
  /** Name of the CPU profile to write, when the upload is profiled. */
  profileName?: string;
  /** Trace the page's tasks (their CPU time) during the upload. */
  trace?: boolean;
  /** Called with the object key once the stored size is checked, before the object is deleted. */
  verify?(key: string): Promise<void>;
}

/**
 * Uploads `filePath` from a fresh page with `mode.page`, samples the page heap meanwhile, checks the stored
 * size and deletes the object.
 */
export async function runInPage(
  browser: CdpBrowser,
  server: PageServer,
  target: Target,
  mode: Pick<UploadMode, 'id' | 'page' | 'build'>,
  filePath: string,
  size: number,
  { timeoutMs, profileName, trace, verify }: PageRunOptions,
): Promise<UploadSample> {
  const declared = mode.page?.declared ? `?strategy=${mode.page.strategy}` : '';
  const page = await browser.newPage(`${server.origin}${mode.build === 'before' ? '/before/' : '/'}${declared}`);
  try {
    await waitForPage(page);
    await page.setInputFile('#file', filePath);
    await page.send('HeapProfiler.collectGarbage');
    const heapBefore = await heapNow(page);
    let heapPeak = heapBefore;
    let sampling = false;
    const sampler = setInterval(() => {
      if (sampling) return;
      sampling = true;
      heapNow(page)
        .then((value) => (heapPeak = Math.max(heapPeak, value)))
        .catch(() => {})
        .finally(() => (sampling = false));
    }, 100);
    if (profileName) await startProfile(page);
    const tracing = trace ? await startTrace(page) : undefined;
    server.takeEndpointCalls();
    const cpuBefore = { client: treeCpuSeconds(browser.pid), byKind: treeCpuSecondsByKind(browser.pid), storage: target.storageCpuSeconds() };
    let result: PageUploadResult;
    try {
      result = await withTimeout(
        page.evaluate<PageUploadResult>(`window.benchUpload(${JSON.stringify(mode.page)})`),
        timeoutMs,
        mode.id,
      );
    } finally {
      clearInterval(sampler);
    }
    const endpoints = server.takeEndpointCalls();
    const clientCpuSeconds = treeCpuSeconds(browser.pid) - cpuBefore.client;
    const clientCpuByProcess = Object.fromEntries(
      Object.entries(treeCpuSecondsByKind(browser.pid)).map(([kind, seconds]) => [kind, Math.round((seconds - (cpuBefore.byKind[kind] ?? 0)) * 100) / 100]),
    );
    const storageCpuSeconds = target.storageCpuSeconds() - cpuBefore.storage;
    const profile = profileName ? await stopProfile(page, profileName) : undefined;
    const taskTimes = tracing ? await stopTrace(page, tracing, { name: `${target.name}-${size / MiB}MiB-${mode.id}` }) : undefined;
    heapPeak = Math.max(heapPeak, await heapNow(page).catch(() => 0));
    const key = keyOf(result.url, target.bucket);
    try {
      const stored = await target.storedSize(key);
      if (stored !== size) throw new Error(`stored ${stored} bytes instead of ${size}`);
      await verify?.(key);
    } finally {
      await target.remove(key);
    }
    const seconds = result.ms / 1000;
    return {
      seconds,
      mbPerSecond: size / 1e6 / seconds,
      heapBefore,
      heapPeak,
      longTasks: result.longTasks,
      ...(result.parts && { parts: result.parts }),
      ...(endpoints.length > 0 && { endpoints }),
      clientCpuSeconds,
      clientCpuByProcess,
      storageCpuSeconds,
      ...(profile ? { profile } : {}),
      ...(taskTimes ? { taskTimes } : {}),
    };
  } finally {
    await page.close().catch(() => {});
  }
}

/** Waits until the page's script has run (`window.benchUpload` exists). */
async function waitForPage(page: CdpPage): Promise<void> {
  for (let waited = 0; waited < 15_000; waited += 50) {
    const ready = await page.evaluate<boolean>(`typeof window.benchUpload === 'function'`).catch(() => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the benchmark page did not load');
}

function fromCurl(sample: CurlSample, size: number): UploadSample {
  return { ...sample, mbPerSecond: size / 1e6 / sample.seconds };
}

const partsKey = (parts: PartSettings) => `${parts.partSize}`;

/** Medians of a cell's good samples. */
function summarize(samples: UploadSample[]): UploadCell['median'] {
  const good = samples.filter((sample) => sample.error === undefined);
  if (good.length === 0) return undefined;
  const withHeap = good.filter((sample) => sample.heapPeak !== undefined);
  const growth = withHeap.map((sample) => sample.heapPeak! - sample.heapBefore!);
  const longTasks = good.map((sample) => sample.longTasks).filter((tasks): tasks is LongTasks => tasks !== undefined);
  const defined = (values: (number | undefined)[]) => values.filter((value): value is number => value !== undefined);
  const clientCpu = defined(good.map((sample) => sample.clientCpuSeconds));
  const storageCpu = defined(good.map((sample) => sample.storageCpuSeconds));
  const timelines = good.map((sample) => sample.parts).filter((parts): parts is PartTimeline => parts !== undefined);
  const create = defined(good.map((sample) => sample.createSeconds));
  const parts = defined(good.map((sample) => sample.partsSeconds));
  const complete = defined(good.map((sample) => sample.completeSeconds));
  return {
    mbPerSecond: median(good.map((sample) => sample.mbPerSecond!)),
    ...(withHeap.length > 0
      ? { heapPeak: median(withHeap.map((sample) => sample.heapPeak!)), heapGrowth: median(growth), heapGrowthMax: Math.max(...growth) }
      : {}),
    ...(longTasks.length > 0
      ? {
          longTaskMaxMs: Math.max(...longTasks.map((tasks) => tasks.maxMs)),
          longTaskCount: longTasks.reduce((sum, tasks) => sum + tasks.count, 0),
        }
      : {}),
    ...(timelines.length > 0
      ? {
          partGapP50Ms: median(timelines.map((parts) => parts.gapP50Ms)),
          partGapP90Ms: median(timelines.map((parts) => parts.gapP90Ms)),
          slotsBusy: median(timelines.map((parts) => parts.slotsBusy)),
          leadInMs: median(timelines.map((parts) => parts.leadInMs)),
          tailMs: median(timelines.map((parts) => parts.tailMs)),
          partsMs: median(timelines.map((parts) => parts.partsMs)),
          partMeanMs: median(timelines.map((parts) => parts.partMeanMs)),
        }
      : {}),
    ...(clientCpu.length > 0 ? { clientCpuSeconds: median(clientCpu), storageCpuSeconds: median(storageCpu) } : {}),
    ...(parts.length > 0 ? { createSeconds: median(create), partsSeconds: median(parts), completeSeconds: median(complete) } : {}),
  };
}

/**
 * The upload benchmark (`upload`, its result in results/upload.json), or with `trace` the trace run
 * (`upload-trace`, results/upload-trace.json): every Upbeam mode of the upload run (md5 included), one round
 * a cell unless UPLOAD_RUNS says otherwise, each upload traced (`UPLOAD_TRACE` for all of them), for the
 * report's long tasks by CPU time. Tracing is kept out of the throughput run: only the traced page would pay
 * for it. With `cpu` the client-CPU table (`upload-cpu`, results/upload-cpu.json): the modes of {@link CPU_TABLE_PAIRS}
 * only, {@link CPU_TABLE_RUNS} rounds.
 */
export async function runUploadBench({ trace = false, cpu = false }: { trace?: boolean; cpu?: boolean } = {}): Promise<UploadResult> {
  const started = performance.now();
  const plans = plan(trace ? () => 1 : cpu ? (mib) => CPU_TABLE_RUNS[mib] ?? 3 : undefined);
  const cpuModes = CPU_TABLE_PAIRS.flatMap(({ mode, floor }) => [mode, floor]);
  const onlyModes = envList('UPLOAD_MODES') ?? (cpu ? cpuModes : undefined);
  const quietTimeoutMs = cpu && !process.env.UPLOAD_QUIET_TIMEOUT_S ? CPU_TABLE_QUIET_TIMEOUT_MS : QUIET_TIMEOUT_MS;
  const profiled = new Set(envList('UPLOAD_PROFILE') ?? []);
  const isUpbeamPage = (mode: UploadMode) => mode.kind === 'page' && mode.id.startsWith('upbeam-');
  const otherRoot = trace || cpu ? undefined : beforeRoot();
  const chosen = UPLOAD_MODES.filter((mode) => (onlyModes ? onlyModes.includes(mode.id) : !mode.optIn && (!trace || isUpbeamPage(mode))));
  const beforeModes: UploadMode[] = otherRoot
    ? chosen.filter(isUpbeamPage).map((mode) => ({ ...mode, id: `${mode.id}-before`, label: `${mode.label} (before)`, build: 'before' }))
    : [];
  const modes = [...chosen, ...beforeModes];
  const traced = new Set(trace ? modes.map((mode) => mode.id) : (envList('UPLOAD_TRACE') ?? []));
  const wantsRadosgw = plans.some((entry) => entry.target === 'radosgw');
  // Before any server starts: the processes started from here run on the servers' cores.
  const cores = coreLayoutFromEnv();
  useCoreLayout(cores);
  // radosgw takes ~15 s to start: it starts while the page is built and the files are written.
  const radosgwStarting = wantsRadosgw ? startRadosgwProcess() : undefined;
  radosgwStarting?.catch(() => {});
  const fileDir = await mkdtemp(join('/dev/shm', 'upbeam-bench-files-'));
  let server: PageServer | undefined;
  let browser: CdpBrowser | undefined;
  const targets: Target[] = [];
  const cells: UploadCell[] = [];
  const descriptions: Record<string, string> = {};
  const loads: number[] = [];
  const quietWaits: QuietWait[] = [];
  try {
    const sizes = [...new Set([WARM_UP_MIB, ...plans.flatMap((entry) => entry.sizes)])];
    const files = new Map<number, string>();
    /** The curl multipart floor's part files, by file size and part size. */
    const partFiles = new Map<string, PartFiles>();
    await buildPageWithVite();
    if (otherRoot) {
      await buildPageWithVite({ outDir: join(PAGE_DIR, 'before'), base: '/before/', plugins: [beforeVitePlugin(beforeBuildsOf(otherRoot))] });
    }
    for (const mib of sizes) {
      const path = join(fileDir, `bench-${mib}MiB.bin`);
      await makeFile(path, mib * MiB);
      files.set(mib, path);
      for (const mode of modes.filter((entry) => entry.kind === 'curl-multipart')) {
        const key = `${mib}:${partsKey(mode.parts!)}`;
        if (!partFiles.has(key)) partFiles.set(key, await cutParts(path, mib * MiB, mode.parts!.partSize, fileDir));
      }
    }
    server = await startPageServer(undefined, { delayMs: PAGE_DELAY_MS });
    browser = await launchCdpBrowser();
    for (const entry of plans) {
      const target =
        entry.target === 's3rver'
          ? await startS3rverTarget(server.origin, S3RVER_VERSION)
          : await radosgwTarget(await radosgwStarting!, server.origin, toolVersion('radosgw', ['--version'])?.replace(/^ceph version /, '') ?? '');
      targets.push(target);
      descriptions[target.name] = target.description;
      server.setTarget(target);
      const pages = { browser, server };
      /** One upload of `mib` by `mode`; a failure becomes the sample's error. */
      const runMode = async (mode: UploadMode, mib: number, profileName?: string): Promise<UploadSample> => {
        const size = mib * MiB;
        const path = files.get(mib)!;
        try {
          if (mode.kind !== 'page') {
            const before = { client: reapedChildrenCpuSeconds(), storage: target.storageCpuSeconds() };
            const sample =
              mode.kind === 'curl-put'
                ? await curlPut(target, path, size, UPLOAD_TIMEOUT_MS)
                : await curlMultipart(target, partFiles.get(`${mib}:${partsKey(mode.parts!)}`)!, size, mode.parts!.queueSize, UPLOAD_TIMEOUT_MS);
            return {
              ...fromCurl(sample, size),
              clientCpuSeconds: reapedChildrenCpuSeconds() - before.client,
              storageCpuSeconds: target.storageCpuSeconds() - before.storage,
            };
          }
          return await runInPage(pages.browser, pages.server, target, mode, path, size, {
            timeoutMs: UPLOAD_TIMEOUT_MS,
            profileName,
            trace: traced.has(mode.id),
          });
        } catch (error) {
          return { error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error) };
        }
      };
      // One small upload by every mode first, not counted: the first use of a client, a connection or a
      // code path (SDK loading, the page's lazy chunks, storage's first bucket access) would fall in round 1.
      for (const mode of modes) {
        const sample = await runMode(mode, WARM_UP_MIB);
        if (sample.error) console.log(`[upload] ${target.name} warm-up ${mode.id}: FAILED ${sample.error}`);
      }
      for (const mib of entry.sizes) {
        // One upload of this size first, not counted: storage's first object of a size takes longer (radosgw's
        // memstore OSD grows its memory by the first 1 GiB object: 178 MB/s, then 247-286 MB/s, 2026-11-28).
        const storageWarmUp = await runMode(CURL_PUT_MODE, mib);
        if (storageWarmUp.error) console.log(`[upload] ${target.name} ${mib} MiB storage warm-up: FAILED ${storageWarmUp.error}`);
        const sizeModes = modes.filter((mode) => mode.maxMiB === undefined || mib <= mode.maxMiB);
        const bySize = new Map(sizeModes.map((mode) => [mode.id, [] as UploadSample[]]));
        const runs = entry.runs[mib]!;
        const pairedRuns = Math.max(runs, entry.pairedRuns[mib]!);
        const roundsOf = (mode: UploadMode) => (PAIRED_MODES.has(mode.id.replace(/-before$/, '')) ? pairedRuns : runs);
        for (let round = 0; round < pairedRuns; round++) {
          const roundModes = sizeModes.filter((mode) => round < roundsOf(mode));
          const order = roundOrder(roundModes, round);
          for (const mode of order) {
            // What the last upload left running (radosgw freeing a deleted object, chromium closing a page)
            // would share the 2 cores with this one.
            await target.collectGarbage();
            const quiet = await waitForQuietMachine({ timeoutMs: quietTimeoutMs });
            quietWaits.push(quiet);
            const load = Math.round(os.loadavg()[0]! * 10) / 10;
            loads.push(load);
            const profileName = profiled.has(mode.id) ? `${target.name}-${mib}MiB-${mode.id}-round${round + 1}` : undefined;
            const sample = await runMode(mode, mib, profileName);
            sample.load = load;
            sample.quietWaitMs = quiet.waitedMs;
            bySize.get(mode.id)!.push(sample);
            console.log(`[upload] ${target.name} ${mib} MiB round ${round + 1}/${roundsOf(mode)} ${mode.id}: ${describeSample(sample)}`);
          }
        }
        for (const mode of sizeModes) {
          const samples = bySize.get(mode.id)!;
          const summary = summarize(samples);
          cells.push({ target: target.name, sizeMiB: mib, mode: mode.id, samples, ...(summary ? { median: summary } : {}) });
        }
      }
    }
    const result: UploadResult = {
      machine: describeMachine(['playwright-core', 'next-s3-upload'], {
        '@20minutes/s3rver': S3RVER_VERSION,
        chromium: browser.version,
        curl: toolVersion('curl')?.split(' ').slice(0, 2).join(' '),
        radosgw: wantsRadosgw ? toolVersion('radosgw', ['--version']) : undefined,
      }),
      seconds: (performance.now() - started) / 1000,
      settings:
        'headless Debian chromium (same binary and flags as tools/test-browser) driven over a bare DevTools pipe (no Network domain), page and storage on different 127.0.0.1 ports (CORS), no network ' +
        (cores
          ? `throttling; the client (chromium, curl) on core ${cores.client}, the servers (storage, the app's server, the DevTools driver) on core ${cores.servers} (taskset, UPLOAD_CORES=split); `
          : 'throttling; every process on every core; ') +
        'random (incompressible) files in /dev/shm set with setInputFiles; browser time from the client call ' +
        'to its resolved promise (the preparation request included); `curl -T` time = the preparation + curl\'s time_total; ' +
        'curl multipart time = CreateMultipartUpload + presigning every part + curl\'s parts + CompleteMultipartUpload; MB = 10^6 bytes; ' +
        'every stored object checked (HEAD size) and deleted after its run; the modes in a new order every round (a hash of round and mode); ' +
        `before each upload, radosgw's garbage collection run (\`radosgw-admin gc process\`) and the machine quiet (${describeQuietWaits(quietWaits, quietTimeoutMs)}); ` +
        `load average (1 min, 2 = both cores busy) during the run: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${median(loads)}` +
        (PAGE_DELAY_MS > 0 ? `; the page server answered every request ${PAGE_DELAY_MS} ms late (UPLOAD_PAGE_DELAY_MS)` : ''),
      ...(cores ? { cores } : {}),
      targets: descriptions,
      modes: modes.map(({ id, label, kind, parts }) => ({ id, label, kind, ...(parts ? { parts } : {}) })),
      cells,
      ...(otherRoot ? { before: beforeRunOf(otherRoot, 'bench:upload', 'UPLOAD_') } : {}),
    };
    // A run against another checkout is a before/after of its own: it leaves the upload tables as they were.
    await saveResult(trace ? 'upload-trace' : cpu ? 'upload-cpu' : otherRoot ? 'upload-before-after' : 'upload', result);
    return result;
  } finally {
    await browser?.close().catch(() => {});
    await server?.close().catch(() => {});
    for (const target of targets) await target.close().catch(() => {});
    if (radosgwStarting && !targets.some((target) => target.name === 'radosgw')) {
      await radosgwStarting.then((radosgw) => radosgw.close()).catch(() => {});
    }
    await rm(fileDir, { recursive: true, force: true });
  }
}

/** e.g. `under 0.25 busy cores for 250 ms: waited 0.3 s median, 4.1 s at most; 0 of 120 waits ran out at 20 s`. */
function describeQuietWaits(waits: QuietWait[], timeoutMs: number): string {
  if (waits.length === 0) return 'no upload ran';
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const timedOut = waits.filter((wait) => wait.timedOut).length;
  return (
    `under ${QUIET_DEFAULTS.maxBusyCores} busy cores for ${QUIET_DEFAULTS.windowMs} ms: waited ${seconds(median(waits.map((wait) => wait.waitedMs)))} s median, ` +
    `${seconds(Math.max(...waits.map((wait) => wait.waitedMs)))} s at most; ${timedOut} of ${waits.length} waits ran out at ${timeoutMs / 1000} s`
  );
}

/** e.g. `create 21.3 ms (CreateMultipartUpload 12.0), complete 30.1 ms (CompleteMultipartUpload 20.2, HeadObject 3.1)`. */
export function describeEndpoints(calls: EndpointCall[]): string {
  return calls
    .map(({ name, ms, storage }) => {
      const calls = storage.map(({ op, ms: storageMs }) => `${op} ${storageMs}`).join(', ');
      return `${name.replace(/^\/api\/(upbeam )?/, '')} ${ms} ms${calls ? ` (${calls})` : ''}`;
    })
    .join('; ');
}

export function describeSample(sample: UploadSample): string {
  if (sample.error) return `FAILED ${sample.error}`;
  const parts = [`${sample.mbPerSecond!.toFixed(0)} MB/s`];
  if (sample.heapPeak !== undefined) parts.push(`heap +${((sample.heapPeak - sample.heapBefore!) / MiB).toFixed(1)} MiB`);
  if (sample.longTasks) parts.push(`long tasks ${sample.longTasks.count} (max ${sample.longTasks.maxMs} ms)`);
  if (sample.parts) {
    const { parts: count, gapP50Ms, gapP90Ms, gapMaxMs, slotsBusy, leadInMs, partsMs, partMeanMs, tailMs } = sample.parts;
    parts.push(
      `${count} part${count === 1 ? '' : 's'}, gap p50 ${gapP50Ms} p90 ${gapP90Ms} max ${gapMaxMs} ms, slots busy ${slotsBusy}, lead-in ${leadInMs} ms, parts ${partsMs} ms (mean part ${partMeanMs} ms), tail ${tailMs} ms`,
    );
  }
  if (sample.parts) {
    const requests = (list: PageRequest[]) => list.map(({ path, startMs, ms }) => `${path} @${startMs} ${ms}`).join(', ') || 'none';
    parts.push(`lead-in requests ${requests(sample.parts.leadInRequests)}, tail requests ${requests(sample.parts.tailRequests)}`);
  }
  if (sample.endpoints) parts.push(`endpoints ${describeEndpoints(sample.endpoints)}`);
  if (sample.clientCpuSeconds !== undefined) {
    const byProcess = Object.entries(sample.clientCpuByProcess ?? {})
      .filter(([, seconds]) => seconds >= 0.05)
      .map(([kind, seconds]) => `${kind} ${seconds.toFixed(1)}`)
      .join(' ');
    parts.push(`CPU client ${sample.clientCpuSeconds.toFixed(1)} s${byProcess ? ` (${byProcess})` : ''}, storage ${sample.storageCpuSeconds!.toFixed(1)} s`);
  }
  if (sample.partsSeconds !== undefined) {
    parts.push(`create + presign ${sample.createSeconds!.toFixed(2)} s, parts ${sample.partsSeconds.toFixed(1)} s, complete ${sample.completeSeconds!.toFixed(1)} s`);
  }
  if (sample.taskTimes) {
    const { tasks, overFiftyCpu, maxCpuMs, overFiftyWall, maxWallMs } = sample.taskTimes;
    parts.push(`main-thread tasks ${tasks}: over 50 ms CPU ${overFiftyCpu} (max ${maxCpuMs} ms), over 50 ms wall ${overFiftyWall} (max ${maxWallMs} ms)`);
  }
  if (sample.profile) parts.push(`main thread busy ${sample.profile.busyMs} of ${sample.profile.wallMs} ms (${sample.profile.file})`);
  if (sample.load !== undefined) parts.push(`load ${sample.load}`);
  return parts.join(', ');
}
