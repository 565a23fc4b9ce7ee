/**
 * `pnpm --filter @upbeam/bench bench:cold-start-routes`: the cold start of a five-route handler
 * (`five-routes.mjs`), this build and another (`COLD_START_BASELINE_DIST`: the dist/ folder of an older build of
 * @upbeam/upload-server) in turn, `COLD_START_ROUNDS` fresh `node` processes each (default 30, after one warm-up
 * each; `COLD_START_BASELINE_LABEL` names it). Medians: the whole process (spawn to exit; its CPU time from its start to the fifth answer), the
 * handler's creation to its fifth answer (wall and CPU, measured inside), and the SDK clients constructed (one
 * more run under `count-clients.mjs`). Writes results/cold-start-routes.json for RESULTS.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describeMachine } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';

const HERE = join(BENCH_DIR, 'src/cold-start');

export interface ColdStartRoutesRow {
  label: string;
  /** Medians, in ms: spawn to exit; the process's CPU to its fifth answer; creation to the fifth answer, wall and CPU. */
  wallMs: number;
  cpuMs: number;
  answersMs: number;
  answersCpuMs: number;
  /** SDK clients constructed, by class (`S3Client`, `STSClient`). */
  clients: Record<string, number>;
}

export interface ColdStartRoutesResult extends ResultMeta {
  rounds: number;
  /** 1-minute load average over the rounds: lowest, median, highest. */
  load: [number, number, number];
  rows: ColdStartRoutesRow[];
}

const env = (dist: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, NODE_NO_WARNINGS: '1', NODE_ENV: 'production' as const, UPBEAM_SERVER_DIST: dist, ...extra });

/** One fresh process: [wall ms spawn to exit, its CPU ms to the fifth answer, answers ms, answers CPU ms]. */
function once(dist: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(HERE, 'five-routes.mjs')], { env: env(dist, { UPBEAM_PRINT_TIMES: '1' }), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      const wall = performance.now() - started;
      if (code !== 0) return reject(new Error(`five-routes.mjs exited with ${code}`));
      const times = JSON.parse(out.trim().split('\n').pop()!) as { answersMs: number; answersCpuMs: number; processCpuMs: number };
      resolve([wall, times.processCpuMs, times.answersMs, times.answersCpuMs]);
    });
  });
}

export async function runColdStartRoutesBench(): Promise<ColdStartRoutesResult> {
  const started = performance.now();
  const rounds = Number(process.env.COLD_START_ROUNDS ?? 30);
  const baseline = process.env.COLD_START_BASELINE_DIST;
  const builds = [{ label: 'this build', dist: '' }, ...(baseline ? [{ label: process.env.COLD_START_BASELINE_LABEL ?? `the other build (${baseline})`, dist: baseline }] : [])];
  const samples = builds.map(() => [[], [], [], []] as number[][]);
  const loads: number[] = [];
  for (const build of builds) await once(build.dist);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, build] of builds.entries()) (await once(build.dist)).forEach((value, column) => samples[index]![column]!.push(value));
    loads.push(loadavg()[0]!);
  }
  const rows = builds.map((build, index): ColdStartRoutesRow => {
    const counted = spawnSync(process.execPath, ['--import', join(HERE, 'count-clients.mjs'), join(HERE, 'five-routes.mjs')], {
      env: env(build.dist, { UPBEAM_COUNT_CLIENTS: '1' }),
      encoding: 'utf8',
    });
    const [wallMs, cpuMs, answersMs, answersCpuMs] = samples[index]!.map((column) => Math.round(median(column)));
    return { label: build.label, wallMs: wallMs!, cpuMs: cpuMs!, answersMs: answersMs!, answersCpuMs: answersCpuMs!, clients: JSON.parse(counted.stdout.trim().split('\n').pop()!) };
  });
  for (const row of rows) console.log(`[cold-start-routes] ${row.label}: ${row.wallMs} ms, CPU ${row.cpuMs} ms; answers ${row.answersMs} ms, CPU ${row.answersCpuMs} ms; ${JSON.stringify(row.clients)}`);
  const result: ColdStartRoutesResult = {
    machine: describeMachine(['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner']),
    seconds: (performance.now() - started) / 1000,
    rounds,
    load: [Math.min(...loads), median(loads), Math.max(...loads)],
    rows,
  };
  await saveResult('cold-start-routes', result);
  return result;
}

await runColdStartRoutesBench();
