/**
 * Cold start: how long a fresh Node process takes from its start to its first presigned preparation answer,
 * Upbeam's node adapter (`upbeam.mjs`) beside a bare `node:http` JSON server (`bare.mjs`), one after the
 * other, round after round. Each process is started with `node` (no loader), asked once, and stopped. The
 * presigned answer needs no storage: it is signed locally (settings point at 127.0.0.1:9, never reached).
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describeMachine } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';

/** Processes started per server (the median is reported). */
export const COLD_START_ROUNDS = Number(process.env.COLD_START_ROUNDS ?? 15);

/** Settings of the handler: a local endpoint, never contacted (a presigned URL is signed offline). */
const ENV = {
  S3_UPLOAD_KEY: 'bench-key',
  S3_UPLOAD_SECRET: 'bench-secret',
  S3_UPLOAD_BUCKET: 'bench',
  S3_UPLOAD_REGION: 'us-east-1',
  S3_UPLOAD_ENDPOINT: 'http://127.0.0.1:9',
  S3_UPLOAD_FORCE_PATH_STYLE: 'true',
};

const BODY = JSON.stringify({ filename: 'holiday photo (1).jpg', filetype: 'image/jpeg', _upload: { strategy: 'presigned' } });

export interface ColdStartRow {
  /** `baseline`: another build of the package (`COLD_START_BASELINE_DIST`), to compare builds in one run. */
  id: 'bare' | 'upbeam' | 'baseline';
  label: string;
  /** Milliseconds from spawn to the first answer's body, each round. */
  samples: number[];
  /** Milliseconds from spawn to listening, each round. */
  listening: number[];
  /** CPU milliseconds (user + system) the process used until its first answer was sent, each round. */
  cpu?: number[];
}

export interface ColdStartResult extends ResultMeta {
  rounds: number;
  rows: ColdStartRow[];
  /** 1-minute load average over the rounds: lowest, median, highest. */
  load?: [number, number, number];
}

/** Starts `script`, asks it once; resolves to [ms to listening, ms to the first answer, CPU ms used until then]. */
async function oneColdStart(script: string, env: Record<string, string> = {}): Promise<[number, number, number]> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(BENCH_DIR, 'src/cold-start', script)], {
    cwd: BENCH_DIR,
    env: { ...process.env, ...ENV, NODE_ENV: 'production', NODE_NO_WARNINGS: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const lines = createInterface({ input: child.stdout! });
    const nextLine = () =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script} did not answer within 30 s`)), 30_000);
        lines.once('line', (text) => {
          clearTimeout(timer);
          resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
      });
    const line = await nextLine();
    const cpuLine = nextLine();
    const listening = performance.now() - started;
    const { port } = JSON.parse(line) as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    const answer = (await response.json()) as { url?: string };
    const answered = performance.now() - started;
    if (response.status !== 200 || typeof answer.url !== 'string') throw new Error(`${script} answered ${response.status}: ${JSON.stringify(answer)}`);
    const { cpu } = JSON.parse(await cpuLine) as { cpu: { user: number; system: number } };
    return [listening, answered, (cpu.user + cpu.system) / 1000];
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

export async function runColdStartBench(): Promise<ColdStartResult> {
  const started = performance.now();
  const baseline = process.env.COLD_START_BASELINE_DIST;
  const rows: ColdStartRow[] = [
    { id: 'bare', label: 'bare `node:http` JSON server', samples: [], listening: [], cpu: [] },
    { id: 'upbeam', label: 'Upbeam: `toNodeHandler(createUploadHandler())`, presigned', samples: [], listening: [], cpu: [] },
    ...(baseline ? [{ id: 'baseline' as const, label: `the same, another build (${baseline})`, samples: [], listening: [], cpu: [] }] : []),
  ];
  const start = (row: ColdStartRow) =>
    row.id === 'baseline' ? oneColdStart('upbeam.mjs', { UPBEAM_SERVER_DIST: baseline! }) : oneColdStart(`${row.id}.mjs`);
  // One warm-up of each (the OS file cache), not counted; then they take turns.
  for (const row of rows) await start(row);
  const loads: number[] = [];
  for (let round = 0; round < COLD_START_ROUNDS; round += 1) {
    for (const row of rows) {
      const [listening, answered, cpu] = await start(row);
      row.listening.push(listening);
      row.samples.push(answered);
      row.cpu!.push(cpu);
    }
    loads.push(loadavg()[0]!);
  }
  for (const row of rows) {
    console.log(`[cold-start] ${row.id}: first answer ${median(row.samples).toFixed(0)} ms, CPU ${median(row.cpu!).toFixed(0)} ms`);
  }
  const result: ColdStartResult = {
    machine: describeMachine(['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'], process.env.UPBEAM_SERVER_DIST ? { 'upload-server dist': process.env.UPBEAM_SERVER_DIST } : {}),
    seconds: (performance.now() - started) / 1000,
    rounds: COLD_START_ROUNDS,
    rows,
    load: [Math.min(...loads), median(loads), Math.max(...loads)],
  };
  await saveResult('cold-start', result);
  return result;
}
