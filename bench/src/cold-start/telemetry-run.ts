/**
 * `pnpm --filter @upbeam/bench bench:cold-start-telemetry`: what OpenTelemetry costs the cold start of a
 * five-route handler (`five-routes.mjs`). The server's sources are built twice with the same esbuild call
 * into bench/.tmp/: as they are, and with `src/telemetry.ts` swapped for no-op functions (no span, no metric,
 * no `@opentelemetry/api` anywhere). Three arms take turns, `COLD_START_ROUNDS` fresh `node` processes each
 * (default 40, after one warm-up each):
 * - this build, no SDK registered (what an app without OpenTelemetry runs);
 * - the same sources without telemetry;
 * - this build with `@opentelemetry/api` loaded at the process's start (`--import`): what importing the API
 *   costs, which an app with an SDK pays anyway, and which this build would pay always if it imported the API eagerly.
 * Reports each arm's medians and the paired differences (round by round) with a 95% interval. Writes
 * results/cold-start-telemetry.json for RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describeMachine } from '../lib/machine';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';

const HERE = join(BENCH_DIR, 'src/cold-start');
const SERVER = join(BENCH_DIR, '../packages/upload-server');
const WORK = join(TMP_DIR, 'cold-start-telemetry');

/**
 * `src/telemetry.ts` without OpenTelemetry: every function it exports, doing nothing but run the work it is
 * given. Keep it in step with telemetry.ts's exports (the build fails on one missing).
 */
const NO_TELEMETRY = `
export const INSTRUMENTATION_NAME = '@upbeam/upload-server';
export const ATTR = { route: 'upbeam.route', operation: 'upbeam.operation', strategy: 'upbeam.strategy', outcome: 'upbeam.outcome', errorType: 'error.type', key: 'upbeam.object.key', size: 'upbeam.object.size', parts: 'upbeam.parts', source: 'upbeam.source' };
const span = { setAttribute() { return span; }, setAttributes() { return span; } };
export function inSpan(_name, _options, work) { return work(span); }
export function routeAttributes() { return {}; }
export function errorType() { return 'Error'; }
export function countRefusal() {}
export function countPreparation() {}
export function countReservedBytes() {}
export function countStoredBytes() {}
export function recordQueueLag() {}
export function timedHook(_route, _source, run) { return run(); }
`;

export interface ColdStartTelemetryArm {
  label: string;
  /** Medians, in ms: the process's CPU to its fifth answer; creation to the fifth answer (CPU); spawn to exit (wall). */
  cpuMs: number;
  answersCpuMs: number;
  wallMs: number;
}

export interface PairedDifference {
  label: string;
  /** Median of the round-by-round differences of process CPU, ms, and its 95% interval. */
  medianMs: number;
  interval: [number, number];
}

export interface ColdStartTelemetryResult extends ResultMeta {
  rounds: number;
  load: [number, number, number];
  arms: ColdStartTelemetryArm[];
  differences: PairedDifference[];
}

/** The 95% distribution-free interval of the median of `values`: order statistics from the sign test's binomial. */
export function medianInterval(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let k = 0;
  let below = 0;
  let term = 0.5 ** n; // P(X = 0) for X ~ Binomial(n, 1/2)
  while (below + term <= 0.025) {
    below += term;
    term = (term * (n - k)) / (k + 1);
    k += 1;
  }
  return [sorted[Math.max(0, k - 1)]!, sorted[Math.min(n - 1, n - k)]!];
}

/** Builds the server's `src/index.ts` into `out` (ESM, packages external), with `telemetry` as its telemetry.ts when given. */
async function buildServer(out: string, telemetry?: string): Promise<string> {
  const root = join(WORK, out);
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(join(SERVER, 'src'), join(root, 'src'), { recursive: true });
  await cp(join(SERVER, 'package.json'), join(root, 'package.json'));
  await symlink(join(SERVER, 'node_modules'), join(root, 'node_modules'));
  if (telemetry !== undefined) await writeFile(join(root, 'src/telemetry.ts'), telemetry);
  await build({
    entryPoints: [join(root, 'src/index.ts')],
    outdir: join(root, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    packages: 'external',
    logLevel: 'error',
  });
  return join(root, 'dist');
}

/** One fresh process: [its CPU ms to the fifth answer, creation to the fifth answer CPU ms, wall ms spawn to exit]. */
function once(dist: string, preload?: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = [...(preload ? ['--import', preload] : []), join(HERE, 'five-routes.mjs')];
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_NO_WARNINGS: '1', NODE_ENV: 'production', UPBEAM_SERVER_DIST: dist, UPBEAM_PRINT_TIMES: '1' };
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      const wall = performance.now() - started;
      if (code !== 0) return reject(new Error(`five-routes.mjs exited with ${code}`));
      const times = JSON.parse(out.trim().split('\n').pop()!) as { answersCpuMs: number; processCpuMs: number };
      resolve([times.processCpuMs, times.answersCpuMs, wall]);
    });
  });
}

export async function runColdStartTelemetryBench(): Promise<ColdStartTelemetryResult> {
  const started = performance.now();
  const rounds = Number(process.env.COLD_START_ROUNDS ?? 40);
  const withTelemetry = await buildServer('with');
  const without = await buildServer('without', NO_TELEMETRY);
  const api = pathToFileURL(createRequire(join(SERVER, 'package.json')).resolve('@opentelemetry/api')).href;
  const arms = [
    { label: 'this build, no SDK registered', dist: withTelemetry },
    { label: 'the same sources without telemetry', dist: without },
    { label: 'this build, `@opentelemetry/api` loaded at start', dist: withTelemetry, preload: api },
  ];
  const samples = arms.map(() => [[], [], []] as number[][]);
  const loads: number[] = [];
  for (const arm of arms) await once(arm.dist, arm.preload);
  for (let round = 0; round < rounds; round += 1) {
    // Each round in another order, so that no arm always follows the same one.
    const order = arms.map((_, index) => (index + round) % arms.length);
    for (const index of order) (await once(arms[index]!.dist, arms[index]!.preload)).forEach((value, column) => samples[index]![column]!.push(value));
    loads.push(loadavg()[0]!);
  }
  const cpu = (index: number) => samples[index]![0]!;
  const paired = (label: string, a: number, b: number): PairedDifference => {
    const differences = cpu(a).map((value, round) => value - cpu(b)[round]!);
    const interval = medianInterval(differences).map((value) => Math.round(value * 10) / 10) as [number, number];
    return { label, medianMs: Math.round(median(differences) * 10) / 10, interval };
  };
  const result: ColdStartTelemetryResult = {
    machine: describeMachine([], { '@opentelemetry/api': JSON.parse(await readFile(join(SERVER, 'node_modules/@opentelemetry/api/package.json'), 'utf8')).version }),
    seconds: (performance.now() - started) / 1000,
    rounds,
    load: [Math.min(...loads), median(loads), Math.max(...loads)],
    arms: arms.map(({ label }, index) => {
      const [cpuMs, answersCpuMs, wallMs] = samples[index]!.map((column) => Math.round(median(column)));
      return { label, cpuMs: cpuMs!, answersCpuMs: answersCpuMs!, wallMs: wallMs! };
    }),
    differences: [paired('telemetry, no SDK (this build − without)', 0, 1), paired('the API imported (loaded at start − this build)', 2, 0)],
  };
  for (const arm of result.arms) console.log(`[cold-start-telemetry] ${arm.label}: CPU ${arm.cpuMs} ms (answers ${arm.answersCpuMs} ms), wall ${arm.wallMs} ms`);
  for (const difference of result.differences) console.log(`[cold-start-telemetry] ${difference.label}: ${difference.medianMs} ms (95% ${difference.interval.join(' to ')})`);
  await saveResult('cold-start-telemetry', result);
  return result;
}

await runColdStartTelemetryBench();
