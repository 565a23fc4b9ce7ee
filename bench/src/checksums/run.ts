/**
 * What a checksum costs the client (issue 46): chromium uploads the same file with each `checksum` option
 * (none, md5, crc32c, crc64nvme, sha256) as one presigned PUT and as a presigned multipart upload, at 128 MiB
 * and 1 GiB, to the embedded storage (`@upbeam/local-s3` in a process of its own: it verifies the
 * `x-amz-checksum-*` headers and Content-MD5, which costs storage's CPU, not the client's). Per upload: the
 * client's CPU seconds (chromium's processes summed, from /proc: the page, its hashing worker, the network
 * service), storage's CPU seconds and MB/s. The modes take turns in a new order every round, so each round
 * pairs every checksum with no checksum of the same shape and size; the report gives the medians of the rounds'
 * ratios with a distribution-free interval.
 *
 * A single PUT hashes the whole file before it asks for its URL (the checksum is signed into it): the file is
 * read twice. Its lead-in (the page's call to the PUT's first byte, from Resource Timing) is measured at 10 MB
 * and 128 MiB beside the lead-in without a checksum: that difference is the wait a user sees.
 *
 * `CHECKSUM_ROUNDS=<10 MB>,<128 MiB>,<1 GiB>` (default 7,7,5), `CHECKSUM_ALGORITHMS=none,crc32c` and
 * `CHECKSUM_SIZES=10MB,128MiB` narrow a run. `CHECKSUM_FLOORS=1` runs instead the bare XHR multipart floor with
 * its parts read four ways (`FloorPartRead`: the slice sent as a Blob; read and CRC32C-hashed, then the slice
 * sent; read and the bytes sent; read, hashed and the bytes sent) at 128 MiB and 1 GiB, saved apart
 * (`checksums-floors`): whether hashing the bytes that are sent (one read) meets the target where a second read
 * does not.
 */
import '../lib/loopback-guard';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { launchCdpBrowser, type CdpBrowser } from '../lib/cdp-browser';
import { envList } from '../lib/env-list';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { waitForQuietMachine, type QuietWait } from '../lib/quiet-machine';
import { saveResult, type ResultMeta } from '../lib/results';
import { roundOrder } from '../lib/round-order';
import { writeReport } from '../report';
import { buildPageWithVite } from '../upload/page-build-vite';
import { startPageServer, type PageServer } from '../upload/page-server';
import type { FloorPartRead } from '../upload/floor-multipart';
import { ENGINE_PARTS, makeFile, runInPage, type UploadMode, type UploadSample } from '../upload/run';
import { startS3rverTarget, type Target } from '../upload/targets';

const MiB = 1024 * 1024;

/** A checksum option of the page, `none` for `checksum: false`. */
export type ChecksumMode = ChecksumAlgorithm | 'none';
/**
 * `floor`: the bare XHR multipart of the browser floor (`CHECKSUM_FLOORS=1`), its parts read as
 * {@link FloorPartRead} says: what one read instead of two would save.
 */
export type Shape = 'put' | 'multipart' | 'floor';

/** The floors' variants, `blob` (the plain floor) first: the others are paired with it. */
const FLOOR_READS: FloorPartRead[] = ['blob', 'blob-crc32c', 'bytes', 'bytes-crc32c'];

/** The file sizes: 10 MB (single PUT only: its lead-in), 128 MiB and 1 GiB. */
export const SIZES = [
  { name: '10MB', label: '10 MB', bytes: 10_000_000, shapes: ['put'] as Shape[] },
  { name: '128MiB', label: '128 MiB', bytes: 128 * MiB, shapes: ['put', 'multipart'] as Shape[] },
  { name: '1GiB', label: '1 GiB', bytes: 1024 * MiB, shapes: ['put', 'multipart'] as Shape[] },
] as const;

/**
 * Rounds by size: 7 at 10 MB and 128 MiB (an interval of 98 % coverage from the range of 7 ratios), 5 at 1 GiB
 * (94 %). A 1 GiB multipart round to s3rver takes ~15 s, so the whole run (10 modes) stays under ~25 minutes.
 */
const DEFAULT_ROUNDS = [7, 7, 5];

/** `multipartThreshold` values that force one PUT or multipart whatever the file size (bytes). */
const ALWAYS_PUT = 5 * 1024 * MiB;
const ALWAYS_MULTIPART = 0;

/** Longest wait for a quiet machine before an upload: the machine is shared, and client CPU, not wall time, is judged. */
const QUIET_TIMEOUT_MS = 5_000;
const UPLOAD_TIMEOUT_MS = 240_000;

export interface ChecksumSample extends UploadSample {
  round: number;
  /** Single PUT: ms from the page's call to the PUT's start (hashing, preparation). */
  leadInMs?: number;
}

export interface ChecksumCell {
  size: string;
  bytes: number;
  shape: Shape;
  /** The checksum option, or for the `floor` shape how its parts were read. */
  checksum: ChecksumMode | FloorPartRead;
  samples: ChecksumSample[];
}

export interface ChecksumsResult extends ResultMeta {
  command: string;
  settings: string;
  storage: string;
  rounds: Record<string, number>;
  cells: ChecksumCell[];
}

function modeOf(shape: Shape, checksum: ChecksumMode | FloorPartRead): UploadMode {
  if (shape === 'floor') {
    return { id: `floor-${checksum}`, kind: 'page', label: `floor ${checksum}`, page: { client: 'floor-multipart', ...ENGINE_PARTS, partRead: checksum as FloorPartRead } };
  }
  const page =
    shape === 'put'
      ? { client: 'upbeam' as const, strategy: 'presigned' as const, multipartThreshold: ALWAYS_PUT }
      : { client: 'upbeam' as const, strategy: 'presigned' as const, multipartThreshold: ALWAYS_MULTIPART, ...ENGINE_PARTS };
  return { id: `${shape}-${checksum}`, kind: 'page', label: `${shape} ${checksum}`, page: { ...page, checksum: checksum === 'none' ? false : (checksum as ChecksumAlgorithm) } };
}

export async function runChecksumsBench(): Promise<ChecksumsResult> {
  const started = performance.now();
  const floors = process.env.CHECKSUM_FLOORS === '1';
  const checksums: (ChecksumMode | FloorPartRead)[] = floors ? FLOOR_READS : ((envList('CHECKSUM_ALGORITHMS') ?? ['none', ...CHECKSUM_ALGORITHMS]) as ChecksumMode[]);
  if (!floors && !checksums.includes('none')) checksums.unshift('none');
  const shapes: Shape[] = floors ? ['floor'] : ['put', 'multipart'];
  const sizeNames = envList('CHECKSUM_SIZES') ?? (floors ? ['128MiB', '1GiB'] : undefined);
  const roundsBySize = (envList('CHECKSUM_ROUNDS')?.map(Number) ?? DEFAULT_ROUNDS).map((rounds, index) => rounds || DEFAULT_ROUNDS[index]!);
  const sizes = SIZES.map((size, index) => ({ ...size, rounds: roundsBySize[index] ?? DEFAULT_ROUNDS[index]! })).filter(
    (size) => !sizeNames || sizeNames.includes(size.name),
  );
  const fileDir = await mkdtemp(join('/dev/shm', 'upbeam-bench-checksum-files-'));
  let server: PageServer | undefined;
  let browser: CdpBrowser | undefined;
  let target: Target | undefined;
  const cells: ChecksumCell[] = [];
  const quietWaits: QuietWait[] = [];
  const loads: number[] = [];
  try {
    await buildPageWithVite();
    server = await startPageServer();
    browser = await launchCdpBrowser();
    target = await startS3rverTarget(server.origin, packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3')));
    server.setTarget(target);
    const warmUp = join(fileDir, 'warm-up.bin');
    await makeFile(warmUp, 11 * MiB);
    // One uncounted upload of every mode: the page's lazy chunks, the worker and its WebAssembly compiled once
    // by the HTTP cache's first fill, storage's first objects.
    for (const shape of shapes) {
      for (const checksum of checksums) {
        const sample = await runInPage(browser, server, target, modeOf(shape, checksum), warmUp, 11 * MiB, { timeoutMs: UPLOAD_TIMEOUT_MS }).catch(
          (error: Error) => ({ error: error.message }),
        );
        if ('error' in sample && sample.error) console.log(`[checksums] warm-up ${shape} ${checksum}: FAILED ${sample.error}`);
      }
    }
    for (const size of sizes) {
      const path = join(fileDir, `${size.name}.bin`);
      await makeFile(path, size.bytes);
      const modes = (floors ? shapes : size.shapes).flatMap((shape) => checksums.map((checksum) => ({ shape, checksum, mode: modeOf(shape, checksum) })));
      const bySize = new Map(modes.map(({ shape, checksum, mode }) => [mode.id, { size: size.name, bytes: size.bytes, shape, checksum, samples: [] } as ChecksumCell]));
      for (let round = 0; round < size.rounds; round++) {
        for (const { mode } of roundOrder(modes.map((entry) => ({ ...entry, id: entry.mode.id })), round)) {
          const quiet = await waitForQuietMachine({ timeoutMs: QUIET_TIMEOUT_MS });
          quietWaits.push(quiet);
          const load = Math.round(os.loadavg()[0]! * 10) / 10;
          loads.push(load);
          let sample: ChecksumSample;
          try {
            const result = await runInPage(browser, server, target, mode, path, size.bytes, { timeoutMs: UPLOAD_TIMEOUT_MS });
            sample = { ...result, round, load, quietWaitMs: quiet.waitedMs, ...(mode.page!.multipartThreshold === ALWAYS_PUT && result.parts ? { leadInMs: result.parts.leadInMs } : {}) };
          } catch (error) {
            sample = { round, load, error: error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error) };
          }
          bySize.get(mode.id)!.samples.push(sample);
          console.log(`[checksums] ${size.label} round ${round + 1}/${size.rounds} ${mode.id}: ${describe(sample, size.bytes)}`);
        }
      }
      cells.push(...bySize.values());
    }
    const timedOut = quietWaits.filter((wait) => wait.timedOut).length;
    const result: ChecksumsResult = {
      machine: describeMachine(['hash-wasm'], { chromium: browser.version }),
      seconds: (performance.now() - started) / 1000,
      command: `pnpm run build && ${floors ? 'CHECKSUM_FLOORS=1 ' : ''}pnpm --filter @upbeam/bench bench:checksums`,
      settings:
        'headless Debian chromium over a bare DevTools pipe, a fresh page per upload, page and storage on different 127.0.0.1 ports, no throttling, every process on every core; ' +
        `presigned strategy, one PUT (multipartThreshold 5 GiB) or multipart (threshold 0, ${ENGINE_PARTS.partSize / MiB} MiB parts, ${ENGINE_PARTS.queueSize} at once); ` +
        'random files in /dev/shm; client CPU = chromium\'s processes (browser, renderer with its workers, network service, GPU) from /proc, from the call to the resolved upload; ' +
        'MB/s from the call to the resolved upload (the preparation, and for a single PUT the hashing before it, included); each stored object checked (size) and deleted; ' +
        `the modes in a new order every round; before each upload at most ${QUIET_TIMEOUT_MS / 1000} s of waiting for a quiet machine (${timedOut} of ${quietWaits.length} waits ran out: the machine is shared); ` +
        `load average (1 min) ${Math.min(...loads)} to ${Math.max(...loads)}`,
      storage: target.description,
      rounds: Object.fromEntries(sizes.map((size) => [size.label, size.rounds])),
      cells,
    };
    await saveResult(floors ? 'checksums-floors' : 'checksums', result);
    return result;
  } finally {
    await browser?.close().catch(() => {});
    await server?.close().catch(() => {});
    await target?.close().catch(() => {});
    await rm(fileDir, { recursive: true, force: true });
  }
}

function describe(sample: ChecksumSample, bytes: number): string {
  if (sample.error) return `FAILED ${sample.error}`;
  const perGiB = (seconds: number) => ((seconds * 1024 * MiB) / bytes).toFixed(2);
  return (
    `${sample.mbPerSecond!.toFixed(0)} MB/s, client CPU ${perGiB(sample.clientCpuSeconds!)} s/GiB ` +
    `(${Object.entries(sample.clientCpuByProcess ?? {})
      .filter(([, seconds]) => seconds >= 0.05)
      .map(([kind, seconds]) => `${kind} ${seconds.toFixed(2)}`)
      .join(' ')}), storage ${perGiB(sample.storageCpuSeconds!)} s/GiB` +
    (sample.leadInMs !== undefined ? `, lead-in ${sample.leadInMs} ms` : '') +
    `, load ${sample.load}`
  );
}

await runChecksumsBench();
console.log(`[checksums] wrote ${await writeReport()}`);
