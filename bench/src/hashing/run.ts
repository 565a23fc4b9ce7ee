/**
 * Hashing throughput in chromium (issue 46): the client's hashing (hash-wasm: CRC32C, CRC64NVME, SHA-256,
 * MD5) of a 128 MiB picked file, in the hash worker and on the main thread (with its 10 ms task budget),
 * beside `crypto.subtle.digest('SHA-256')` of the same bytes read whole into one buffer, and the file read with
 * no hash (the floor). Per hash: wall MB/s
 * in the page and chromium's CPU seconds (all its processes, from /proc: the page's main thread and its
 * worker). The modes take turns in a new order every round; figures are medians with their interval.
 *
 * `HASHING_ROUNDS` (default 7), `HASHING_MIB` (default 128) narrow a run. Writes bench/results/hashing.json;
 * `pnpm bench:report` puts it into RESULTS.md ("Hashing throughput (issue 46)").
 */
import '../lib/loopback-guard';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { build } from 'esbuild';
import { launchCdpBrowser, type CdpBrowser } from '../lib/cdp-browser';
import { treeCpuSecondsByKind } from '../lib/cpu-time';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { waitForQuietMachine } from '../lib/quiet-machine';
import { saveResult, type ResultMeta } from '../lib/results';
import { roundOrder } from '../lib/round-order';
import { writeReport } from '../report';
import { PAGE_HTML, startPageServer, type PageServer } from '../upload/page-server';
import type { HashTiming, HashWhere } from './page';

const MiB = 1024 * 1024;
const PAGE = join(TMP_DIR, 'hashing-page');
const CLIENT_SRC = join(BENCH_DIR, '..', 'packages', 'upload-client', 'src');

/** One way of hashing: where, and which algorithm (`subtle`: SHA-256 only). */
export interface HashingMode {
  id: string;
  where: HashWhere;
  algorithm: ChecksumAlgorithm;
}

export interface HashingSample {
  round: number;
  ms?: number;
  /** WebCrypto only: ms of `file.arrayBuffer()` within `ms`. */
  readMs?: number;
  /** CPU seconds of chromium's processes during the hash. */
  cpuSeconds?: number;
  /** Of which the renderer's (the page's main thread and its worker: the hashing; the rest is the file's reading, in the browser process). */
  rendererCpuSeconds?: number;
  error?: string;
}

export interface HashingResult extends ResultMeta {
  command: string;
  bytes: number;
  rounds: number;
  cells: { mode: HashingMode; samples: HashingSample[] }[];
}

const MODES: HashingMode[] = [
  ...CHECKSUM_ALGORITHMS.flatMap((algorithm) => (['worker', 'main'] as const).map((where) => ({ id: `${where}-${algorithm}`, where, algorithm }))),
  { id: 'subtle-sha256', where: 'subtle', algorithm: 'sha256' },
  // A multipart upload's part digests (5 MiB parts; SHA-256 of a part by WebCrypto) and their composite.
  { id: 'parts-sha256', where: 'parts', algorithm: 'sha256' },
  // `algorithm` unused: the file is read (1 MiB BYOB reads on the main thread) and not hashed.
  { id: 'read-only', where: 'read', algorithm: 'md5' },
];

/** The page (esbuild, minified, as size-limit measures) and the hash worker beside it, as an app's bundler emits them. */
async function buildHashingPage(): Promise<void> {
  await rm(PAGE, { recursive: true, force: true });
  const common = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', logLevel: 'error', outdir: PAGE } as const;
  await build({ ...common, entryPoints: { page: join(BENCH_DIR, 'src', 'hashing', 'page.ts') } });
  await build({ ...common, entryPoints: { 'hash-worker': join(CLIENT_SRC, 'hash-worker.ts') } });
  await writeFile(join(PAGE, 'index.html'), PAGE_HTML);
}

/**
 * The file's SHA-256 and MD5 by node:crypto, which every page hash of them must equal; a CRC must equal the
 * first one the page computed (the unit tests hold hash-wasm's CRCs to the AWS SDK's).
 */
async function references(path: string): Promise<Record<string, string>> {
  const bytes = await readFile(path);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), md5: createHash('md5').update(bytes).digest('hex') };
}

export async function runHashingBench(): Promise<HashingResult> {
  const started = performance.now();
  const rounds = Number(process.env.HASHING_ROUNDS) || 7;
  const bytes = (Number(process.env.HASHING_MIB) || 128) * MiB;
  const dir = await mkdtemp(join('/dev/shm', 'upbeam-bench-hashing-'));
  let server: PageServer | undefined;
  let browser: CdpBrowser | undefined;
  let chromium = 'unknown';
  const cells = MODES.map((mode) => ({ mode, samples: [] as HashingSample[] }));
  try {
    const path = join(dir, 'hashed.bin');
    await writeFile(path, Uint8Array.from({ length: bytes }, (_, i) => (i * 31) % 251));
    const expected = await references(path);
    await buildHashingPage();
    server = await startPageServer(PAGE);
    browser = await launchCdpBrowser();
    chromium = browser.version;
    const page = await browser.newPage(`${server.origin}/`);
    for (let tries = 0; !(await page.evaluate<boolean>("'hashing' in window")); tries++) {
      if (tries > 100) throw new Error('the hashing page did not start in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.setInputFile('input', path);
    await page.evaluate('window.hashing.warmUp()');
    for (let round = 0; round < rounds; round++) {
      for (const { mode, samples } of roundOrder(cells.map((cell) => ({ ...cell, id: cell.mode.id })), round)) {
        await waitForQuietMachine({ timeoutMs: 5_000 });
        const cpuBefore = treeCpuSecondsByKind(browser.pid);
        let sample: HashingSample;
        try {
          const timing = await page.evaluate<HashTiming>(`window.hashing.hash(${JSON.stringify(mode.where)}, ${JSON.stringify(mode.algorithm)})`);
          const reference = mode.where === 'read' ? '' : (expected[mode.where === 'parts' ? `parts-${mode.algorithm}` : mode.algorithm] ??= timing.hex);
          if (timing.hex !== reference) throw new Error(`digest ${timing.hex}, expected ${reference}`);
          const cpuAfter = treeCpuSecondsByKind(browser.pid);
          const spent = (kind?: string) =>
            Object.entries(cpuAfter)
              .filter(([name]) => !kind || name === kind)
              .reduce((sum, [name, seconds]) => sum + seconds - (cpuBefore[name] ?? 0), 0);
          sample = { round, ms: timing.ms, cpuSeconds: spent(), rendererCpuSeconds: spent('renderer'), ...(timing.readMs !== undefined && { readMs: timing.readMs }) };
        } catch (error) {
          sample = { round, error: error instanceof Error ? error.message.slice(0, 200) : String(error) };
        }
        samples.push(sample);
        const mbps = sample.ms ? ((bytes / 1e6) / (sample.ms / 1000)).toFixed(0) : '-';
        console.log(`[hashing] round ${round + 1}/${rounds} ${mode.id}: ${sample.error ?? `${sample.ms!.toFixed(0)} ms, ${mbps} MB/s, CPU ${sample.cpuSeconds!.toFixed(2)} s`}`);
      }
    }
    await page.close();
  } finally {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
  const result: HashingResult = {
    machine: describeMachine([], { 'hash-wasm': packageVersion('hash-wasm', join(BENCH_DIR, '..', 'packages', 'upload-client')), chromium }),
    seconds: Math.round((performance.now() - started) / 1000),
    command: 'pnpm --filter @upbeam/bench bench:hashing',
    bytes,
    rounds,
    cells,
  };
  await saveResult('hashing', result);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runHashingBench();
  await writeReport();
}
