/**
 * `bench:post` (issue 45): a presigned POST single upload (Upbeam's `uploadFile` with `strategy: 'presigned-post'`)
 * against the bare XHR PUT floor in the same rounds, in chromium, at 128 MiB and 1 GiB, on s3rver (`@upbeam/local-s3`,
 * which takes POST Object) and Ceph radosgw. Beside them, same rounds: the bare form POST (the floor of a POST: the
 * answer's fields and the file in a `FormData`, one XHR) and Upbeam's presigned single PUT. Per upload: client CPU
 * seconds (every chromium process, summed: `/proc`), MB/s; per cell, the median of the rounds' paired ratios to the
 * PUT floor with a 90 % order-statistics interval. Each upload from a fresh page (the upload benchmark's
 * `runInPage`), modes in a new random order each round, a quiet machine awaited (at most 3 s) before each.
 *
 *   flock /tmp/h45/bench.lock pnpm --filter @upbeam/bench bench:post
 *
 * `POST_TARGETS=s3rver,radosgw` and `POST_SIZES=128,1024` (MiB) narrow it; `POST_ROUNDS=128:9,1024:5` sets the rounds;
 * `POST_MODES` names the modes (default `floor,floor-post,post`; `put` adds Upbeam's presigned single PUT).
 * Writes bench/results/post.json; `report-post.ts` turns it into RESULTS.md section 3h.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { launchCdpBrowser, type CdpBrowser } from '../lib/cdp-browser';
import { envList } from '../lib/env-list';
import { describeMachine, packageVersion, toolVersion, type Machine } from '../lib/machine';
import { BENCH_DIR, RESULTS_DIR, TMP_DIR } from '../lib/paths';
import { waitForQuietMachine } from '../lib/quiet-machine';
import { roundOrder } from '../lib/round-order';
import { buildPage, startPageServer, type PageServer } from '../upload/page-server';
import type { PageUpload } from '../upload/page';
import { makeFile, runInPage } from '../upload/run';
import { radosgwTarget, startRadosgwProcess, startS3rverTarget, type Target, type TargetName } from '../upload/targets';
import type { PostPageUpload } from './page';

const MiB = 1024 * 1024;
const PAGE_OUT = join(TMP_DIR, 'post-page');

/** One way to send the file, as the page does it. */
export interface PostMode {
  id: PostPageUpload['client'];
  label: string;
}

export const POST_MODES: PostMode[] = [
  { id: 'floor', label: 'floor: bare XHR PUT to the presigned URL (28 lines)' },
  { id: 'floor-post', label: 'floor of a POST: bare XHR form POST (the fields, then the file)' },
  { id: 'post', label: "Upbeam `uploadFile`, `strategy: 'presigned-post'`" },
  { id: 'put', label: 'Upbeam `uploadFile`, presigned single PUT (opt-in: `POST_MODES=floor,floor-post,post,put`)' },
];

/** The modes run by default: the POST, its floor and the PUT floor (Upbeam's single PUT is the upload table's). */
const DEFAULT_MODES = ['floor', 'floor-post', 'post'];

/** One upload's figures, or its error. */
export interface PostSample {
  seconds?: number;
  mbPerSecond?: number;
  /** CPU seconds of every chromium process during the upload. */
  clientCpuSeconds?: number;
  storageCpuSeconds?: number;
  error?: string;
  /** 1-minute load average before it. */
  load?: number;
}

export interface PostCell {
  target: TargetName;
  sizeMiB: number;
  mode: PostMode['id'];
  /** Round by round (index = round), for the pairing. */
  samples: PostSample[];
}

export interface PostResult {
  machine: Machine;
  seconds: number;
  command: string;
  settings: string;
  targets: Record<string, string>;
  modes: PostMode[];
  cells: PostCell[];
}

const DEFAULT_ROUNDS: Record<number, number> = { 128: 9, 1024: 5 };
/** The CPU figures are what is judged, not the wall clock: a busy machine is waited for 3 s at most. */
const QUIET_TIMEOUT_MS = 3000;
/** 1 GiB at ~25 MB/s and then some. */
const UPLOAD_TIMEOUT_MS = 240_000;
/** The first upload of each mode on each target, not counted (the lazy chunk, the first connection). */
const WARM_UP_MIB = 8;

function roundsFromEnv(): Record<number, number> {
  const rounds = { ...DEFAULT_ROUNDS };
  for (const entry of envList('POST_ROUNDS') ?? []) {
    const [mib, count] = entry.split(':').map(Number);
    if (mib && count) rounds[mib] = count;
  }
  return rounds;
}

async function main(): Promise<void> {
  const started = performance.now();
  const targetNames = (envList('POST_TARGETS') ?? ['s3rver', 'radosgw']) as TargetName[];
  const sizes = (envList('POST_SIZES') ?? ['128', '1024']).map(Number);
  const rounds = roundsFromEnv();
  const wanted = envList('POST_MODES') ?? DEFAULT_MODES;
  const modes = POST_MODES.filter((mode) => wanted.includes(mode.id));
  const radosgwStarting = targetNames.includes('radosgw') ? startRadosgwProcess() : undefined;
  radosgwStarting?.catch(() => {});
  const fileDir = await mkdtemp(join('/dev/shm', 'upbeam-bench-post-'));
  let server: PageServer | undefined;
  let browser: CdpBrowser | undefined;
  const opened: Target[] = [];
  const cells: PostCell[] = [];
  const descriptions: Record<string, string> = {};
  try {
    await buildPage({ entry: join(BENCH_DIR, 'src', 'post', 'page.ts'), outDir: PAGE_OUT });
    const files = new Map<number, string>();
    for (const mib of [WARM_UP_MIB, ...sizes]) {
      const path = join(fileDir, `post-${mib}MiB.bin`);
      await makeFile(path, mib * MiB);
      files.set(mib, path);
    }
    server = await startPageServer(PAGE_OUT);
    browser = await launchCdpBrowser();
    const s3rverVersion = packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3'));
    for (const name of targetNames) {
      const target =
        name === 's3rver'
          ? await startS3rverTarget(server.origin, s3rverVersion)
          : await radosgwTarget(await radosgwStarting!, server.origin, toolVersion('radosgw', ['--version'])?.replace(/^ceph version /, '') ?? '');
      opened.push(target);
      descriptions[name] = target.description;
      server.setTarget(target);
      const run = async (mode: PostMode, mib: number): Promise<PostSample> => {
        try {
          const page = { id: mode.id, page: { client: mode.id } as unknown as PageUpload };
          const sample = await runInPage(browser!, server!, target, page, files.get(mib)!, mib * MiB, { timeoutMs: UPLOAD_TIMEOUT_MS });
          const { seconds, mbPerSecond, clientCpuSeconds, storageCpuSeconds } = sample;
          return { seconds, mbPerSecond, clientCpuSeconds, storageCpuSeconds };
        } catch (error) {
          return { error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error) };
        }
      };
      for (const mode of modes) {
        const warm = await run(mode, WARM_UP_MIB);
        if (warm.error) console.log(`[post] ${name} warm-up ${mode.id}: FAILED ${warm.error}`);
      }
      for (const mib of sizes) {
        // Storage's first object of a size takes longer (radosgw's memstore grows): one floor upload, not counted.
        await run(POST_MODES[0]!, mib);
        const bySize = new Map(modes.map((mode) => [mode.id, [] as PostSample[]]));
        for (let round = 0; round < (rounds[mib] ?? 3); round++) {
          for (const mode of roundOrder(modes, round)) {
            await target.collectGarbage();
            await waitForQuietMachine({ timeoutMs: QUIET_TIMEOUT_MS });
            const load = Math.round(os.loadavg()[0]! * 10) / 10;
            const sample = { ...(await run(mode, mib)), load };
            bySize.get(mode.id)![round] = sample;
            const figures = sample.error
              ? `FAILED ${sample.error}`
              : `${sample.mbPerSecond!.toFixed(0)} MB/s, client CPU ${sample.clientCpuSeconds!.toFixed(2)} s, load ${load}`;
            console.log(`[post] ${name} ${mib} MiB round ${round + 1} ${mode.id}: ${figures}`);
          }
        }
        for (const mode of modes) cells.push({ target: name, sizeMiB: mib, mode: mode.id, samples: bySize.get(mode.id)! });
      }
    }
    const result: PostResult = {
      machine: { ...describeMachine(['@upbeam/upload-client'], { chromium: browser.version }), load: Math.round(os.loadavg()[0]! * 10) / 10 },
      seconds: (performance.now() - started) / 1000,
      command: 'flock /tmp/h45/bench.lock pnpm --filter @upbeam/bench bench:post',
      settings:
        'Headless Debian chromium over a bare DevTools pipe, each upload from a fresh page, the file picked from /dev/shm (random bytes), ' +
        'page and storage on different 127.0.0.1 ports (CORS), modes in a new random order each round, storage reniced, at most 3 s waited for a quiet machine',
      targets: descriptions,
      modes,
      cells,
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(join(RESULTS_DIR, 'post.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(`[post] wrote ${join(RESULTS_DIR, 'post.json')} in ${result.seconds.toFixed(0)} s`);
  } finally {
    await browser?.close().catch(() => {});
    for (const target of opened) await target.close().catch(() => {});
    if (!opened.some((target) => target.name === 'radosgw')) await (await radosgwStarting?.catch(() => undefined))?.close();
    await server?.close();
    await rm(fileDir, { recursive: true, force: true });
  }
}

await main();
