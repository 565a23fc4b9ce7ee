/**
 * Benchmark 3, upload throughput and memory in chromium: MB/s of a file picked on a page and sent to
 * storage by each client, beside `curl -T` of the same file to the same server (the floor), and the
 * page's JS heap (objects + ArrayBuffer backing stores, CDP `Runtime.getHeapUsage`, sampled every
 * 100 ms) during each upload. Modes take turns within each round, so a noisy moment hits all alike.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { launchCdpBrowser, type CdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { BENCH_DIR } from '../lib/paths';
import { describeMachine, packageVersion, toolVersion } from '../lib/machine';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';
import type { PageUpload, PageUploadResult } from './page';
import { buildPage, startPageServer, type PageServer } from './page-server';
import { radosgwTarget, startRadosgwProcess, startS3rverTarget, type Target, type TargetName } from './targets';

const MiB = 1024 * 1024;
const S3RVER_VERSION = packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3'));

export interface UploadMode {
  id: string;
  label: string;
  /** Absent for curl. */
  page?: PageUpload;
}

export const UPLOAD_MODES: UploadMode[] = [
  { id: 'curl', label: 'floor: `curl -T` to the presigned URL' },
  { id: 'floor-xhr', label: 'floor in the browser: 28-line XHR PUT', page: { client: 'floor' } },
  { id: 'upbeam-presigned', label: 'Upbeam presigned (one XHR PUT)', page: { client: 'upbeam', strategy: 'presigned' } },
  { id: 'next-presigned', label: 'next-s3-upload `usePresignedUpload`', page: { client: 'next-s3-upload' } },
  {
    id: 'upbeam-multipart-q1',
    label: 'Upbeam temporary-token, multipart, queue 1',
    page: { client: 'upbeam', strategy: 'temporary-token', queueSize: 1 },
  },
  {
    id: 'upbeam-multipart-q4',
    label: 'Upbeam temporary-token, multipart, queue 4 (default)',
    page: { client: 'upbeam', strategy: 'temporary-token', queueSize: 4 },
  },
  {
    id: 'upbeam-multipart-q8',
    label: 'Upbeam temporary-token, multipart, queue 8',
    page: { client: 'upbeam', strategy: 'temporary-token', queueSize: 8 },
  },
  {
    id: 'upbeam-multipart-q4-p16',
    label: 'Upbeam temporary-token, multipart, queue 4, 16 MiB parts',
    page: { client: 'upbeam', strategy: 'temporary-token', queueSize: 4, partSize: 16 * MiB },
  },
];

interface Plan {
  target: TargetName;
  sizes: number[];
  runs: Record<number, number>;
}

function envList(name: string): string[] | undefined {
  return process.env[name]?.split(',').map((value) => value.trim()).filter(Boolean);
}

/**
 * What runs: s3rver at 16, 128 and 512 MiB; radosgw (objects in RAM) at 16 and 128 MiB only; five rounds.
 * UPLOAD_TARGETS, UPLOAD_SIZES_MIB, UPLOAD_MODES and UPLOAD_RUNS narrow it for a quick look.
 */
function plan(): Plan[] {
  const targets = (envList('UPLOAD_TARGETS') ?? ['s3rver', 'radosgw']) as TargetName[];
  const sizes = envList('UPLOAD_SIZES_MIB')?.map(Number);
  const runs = process.env.UPLOAD_RUNS ? Number(process.env.UPLOAD_RUNS) : undefined;
  const runsFor = (list: number[]) => Object.fromEntries(list.map((mib) => [mib, runs ?? 5]));
  return targets.map((target) => {
    const list = sizes ?? (target === 'radosgw' ? [16, 128] : [16, 128, 512]);
    return { target, sizes: list, runs: runsFor(list) };
  });
}

export interface UploadSample {
  seconds?: number;
  mbPerSecond?: number;
  /** Page JS heap before the upload (after a GC) and its peak during it, bytes (objects + ArrayBuffers). */
  heapBefore?: number;
  heapPeak?: number;
  error?: string;
}

export interface UploadCell {
  target: TargetName;
  sizeMiB: number;
  mode: string;
  samples: UploadSample[];
  median?: { mbPerSecond: number; heapPeak?: number; heapGrowth?: number };
}

export interface UploadResult extends ResultMeta {
  settings: string;
  targets: Record<string, string>;
  modes: { id: string; label: string }[];
  cells: UploadCell[];
}

const execFileAsync = promisify(execFile);

/** Writes `bytes` of random data (not compressible) in 8 MiB blocks. */
async function makeFile(path: string, bytes: number): Promise<void> {
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

const UPLOAD_TIMEOUT_MS = 240_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms))),
  ]).finally(() => clearTimeout(timer!));
}

async function runInPage(
  browser: CdpBrowser,
  server: PageServer,
  target: Target,
  mode: UploadMode,
  filePath: string,
  size: number,
): Promise<UploadSample> {
  const page = await browser.newPage(server.origin);
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
    let result: PageUploadResult;
    try {
      result = await withTimeout(
        page.evaluate<PageUploadResult>(`window.benchUpload(${JSON.stringify(mode.page)})`),
        UPLOAD_TIMEOUT_MS,
        mode.id,
      );
    } finally {
      clearInterval(sampler);
    }
    heapPeak = Math.max(heapPeak, await heapNow(page).catch(() => 0));
    const key = keyOf(result.url, target.bucket);
    const stored = await target.storedSize(key);
    await target.remove(key);
    if (stored !== size) throw new Error(`stored ${stored} bytes instead of ${size}`);
    const seconds = result.ms / 1000;
    return { seconds, mbPerSecond: size / 1e6 / seconds, heapBefore, heapPeak };
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

async function runCurl(target: Target, filePath: string, size: number): Promise<UploadSample> {
  const response = await target.upbeam(
    new Request('http://127.0.0.1/api/upbeam', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        filename: basename(filePath),
        filetype: 'application/octet-stream',
        filesize: size,
        _upload: { strategy: 'presigned' },
      }),
    }),
  );
  const answer = (await response.json()) as { url: string; key: string; headers: Record<string, string> };
  const headers = Object.entries(answer.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  // `Expect:` off: curl would otherwise wait for a 100 Continue before sending the body.
  const { stdout } = await execFileAsync(
    'curl',
    ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-T', filePath, '-H', 'Expect:', ...headers, answer.url],
    { timeout: UPLOAD_TIMEOUT_MS },
  );
  const [status, total] = stdout.trim().split(' ');
  const stored = await target.storedSize(answer.key);
  await target.remove(answer.key);
  if (status !== '200' || stored !== size) throw new Error(`curl: HTTP ${status}, stored ${stored} bytes of ${size}`);
  const seconds = Number(total);
  return { seconds, mbPerSecond: size / 1e6 / seconds };
}

export async function runUploadBench(): Promise<UploadResult> {
  const started = performance.now();
  const plans = plan();
  const onlyModes = envList('UPLOAD_MODES');
  const modes = UPLOAD_MODES.filter((mode) => !onlyModes || onlyModes.includes(mode.id));
  const wantsRadosgw = plans.some((entry) => entry.target === 'radosgw');
  // radosgw takes ~15 s to start: it starts while the page is built and the files are written.
  const radosgwStarting = wantsRadosgw ? startRadosgwProcess() : undefined;
  radosgwStarting?.catch(() => {});
  const fileDir = await mkdtemp(join('/dev/shm', 'upbeam-bench-files-'));
  let server: PageServer | undefined;
  let browser: CdpBrowser | undefined;
  const targets: Target[] = [];
  const cells: UploadCell[] = [];
  const descriptions: Record<string, string> = {};
  try {
    const sizes = [...new Set(plans.flatMap((entry) => entry.sizes))];
    const files = new Map<number, string>();
    await buildPage();
    for (const mib of sizes) {
      const path = join(fileDir, `bench-${mib}MiB.bin`);
      await makeFile(path, mib * MiB);
      files.set(mib, path);
    }
    server = await startPageServer();
    browser = await launchCdpBrowser();
    for (const entry of plans) {
      const target =
        entry.target === 's3rver'
          ? await startS3rverTarget(server.origin, S3RVER_VERSION)
          : await radosgwTarget(await radosgwStarting!, server.origin, toolVersion('radosgw', ['--version'])?.replace(/^ceph version /, '') ?? '');
      targets.push(target);
      descriptions[target.name] = target.description;
      server.setTarget(target);
      for (const mib of entry.sizes) {
        const size = mib * MiB;
        const path = files.get(mib)!;
        const bySize = new Map(modes.map((mode) => [mode.id, [] as UploadSample[]]));
        const runs = entry.runs[mib]!;
        for (let round = 0; round < runs; round++) {
          const order = modes.map((_, index) => modes[(index + round) % modes.length]!);
          for (const mode of order) {
            let sample: UploadSample;
            try {
              sample = mode.page
                ? await runInPage(browser, server, target, mode, path, size)
                : await runCurl(target, path, size);
            } catch (error) {
              sample = { error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error) };
            }
            bySize.get(mode.id)!.push(sample);
            console.log(
              `[upload] ${target.name} ${mib} MiB round ${round + 1}/${runs} ${mode.id}: ` +
                (sample.error
                  ? `FAILED ${sample.error}`
                  : `${sample.mbPerSecond!.toFixed(0)} MB/s${sample.heapPeak ? `, heap peak ${(sample.heapPeak / MiB).toFixed(1)} MiB` : ''}`),
            );
          }
        }
        for (const mode of modes) {
          const samples = bySize.get(mode.id)!;
          const good = samples.filter((sample) => sample.error === undefined);
          const peaks = good.map((sample) => sample.heapPeak).filter((value): value is number => value !== undefined);
          const growth = good
            .filter((sample) => sample.heapPeak !== undefined)
            .map((sample) => sample.heapPeak! - sample.heapBefore!);
          cells.push({
            target: target.name,
            sizeMiB: mib,
            mode: mode.id,
            samples,
            ...(good.length > 0
              ? {
                  median: {
                    mbPerSecond: median(good.map((sample) => sample.mbPerSecond!)),
                    ...(peaks.length > 0 ? { heapPeak: median(peaks), heapGrowth: median(growth) } : {}),
                  },
                }
              : {}),
          });
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
        'throttling; random (incompressible) files in /dev/shm set with setInputFiles; browser time from the client call ' +
        'to its resolved promise (the preparation request included), curl time = its time_total; MB = 10^6 bytes; ' +
        'every stored object checked (HEAD size) and deleted after its run; default part size 5 MiB',
      targets: descriptions,
      modes: modes.map(({ id, label }) => ({ id, label })),
      cells,
    };
    await saveResult('upload', result);
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
