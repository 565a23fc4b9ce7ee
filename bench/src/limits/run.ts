/**
 * What counting limits in Redis costs a presigned preparation, past one process: two clusters of 3 handler
 * processes each (`@upbeam/handler-cluster`, the built package through toNodeHandler), the same handler without
 * limits beside it with all four limits (preparations, files and bytes per window, uploads in flight) counted in
 * one redis-server (`redisLimitStore`, one Lua script per preparation), and a third cluster with the same limits
 * in each process's memory (`memoryLimitStore`): what limits cost besides Redis (the receipt every limited
 * preparation carries). A load generator in this process keeps
 * `CONNECTIONS` preparations in flight, spread over the three processes in turn, for at most `REQUESTS` requests
 * or `SECONDS` s per run; 1,000 subjects in turn (the body's `user`), limits far above the load so that every
 * preparation is granted (checked: a refusal fails the run). Paired rounds: both clusters in each round, back to
 * back, which first alternating. Figures: req/s, and the CPU time (user + system, /proc) of the handler processes
 * per preparation, and of redis-server. Storage: `@upbeam/local-s3` in this process (a presigned preparation asks
 * it once per process whether it refuses unsigned headers, then signs without a storage request).
 * `pnpm --filter @upbeam/bench bench:limits` (build first: `pnpm --filter @upbeam/upload-server build`);
 * writes `results/limits.json` and rewrites RESULTS.md.
 */
import '../lib/loopback-guard';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { startHandlerCluster, type HandlerCluster, type HandlerProcessConfig } from '@upbeam/handler-cluster';
import { startRedis, type RedisServer } from '@upbeam/redis-server';
import { startLocalS3 } from '@upbeam/local-s3';
import { join } from 'node:path';
import { describeMachine, packageVersion, toolVersion } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { pairedFigures, type PairedFigures } from '../lib/paired';
import { saveResult, type ResultMeta } from '../lib/results';
import { writeReport } from '../report';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const SECONDS = Number(process.env.SECONDS_PER_RUN ?? 4);
const REQUESTS = Number(process.env.REQUESTS_PER_RUN ?? 8_000);
const CONNECTIONS = 24;
const WARMUP = 3_000;
const SUBJECTS = 1_000;
const PROCESSES = 3;

const HUGE = 1e12;
const LIMITS = {
  preparations: { max: HUGE, windowSeconds: 60 },
  files: { max: HUGE, windowSeconds: 86_400 },
  bytes: { max: 1e15, windowSeconds: 86_400 },
  inFlight: 1_000_000,
};

export interface LimitsSample {
  requestsPerSecond: number;
  /** CPU time of the 3 handler processes per preparation, µs. */
  handlerCpuMicros: number;
  /** CPU time of redis-server per preparation, µs (0 without limits). */
  redisCpuMicros: number;
  requests: number;
  load: number;
}

export interface LimitsResult extends ResultMeta {
  settings: string;
  command: string;
  plain: LimitsSample[];
  /** The same limits counted in each process's memory (`memoryLimitStore`): what the limits cost besides Redis. */
  memory: LimitsSample[];
  redis: LimitsSample[];
  /** Redis store / no limits, per round. */
  requestsPerSecond: PairedFigures;
  handlerCpu: PairedFigures;
  /** Memory store / no limits, per round. */
  memoryRequestsPerSecond: PairedFigures;
  memoryHandlerCpu: PairedFigures;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function prepare(url: string, user: number): Promise<number> {
  const body = JSON.stringify({ filename: 'holiday photo (1).jpg', filetype: 'image/jpeg', filesize: 2_345_678, user: `user-${user}`, _upload: { strategy: 'presigned' } });
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${url}/api/upload`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode!));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** `CONNECTIONS` loops, each preparing on the processes in turn, until `count` requests or `seconds` s. */
async function drive(cluster: HandlerCluster, count: number, seconds: number): Promise<{ requests: number; seconds: number }> {
  let sent = 0;
  let user = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent < count && performance.now() < deadline) {
        const index = sent++;
        const status = await prepare(cluster.urls[index % cluster.urls.length]!, user++ % SUBJECTS);
        if (status !== 200) throw new Error(`a preparation answered ${status}: ${JSON.stringify(await cluster.errors())}`);
      }
    }),
  );
  return { requests: sent, seconds: (performance.now() - started) / 1000 };
}

function cpuMicros(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function measure(cluster: HandlerCluster, redis: RedisServer | undefined): Promise<LimitsSample> {
  const cpuBefore = cluster.cpuMicros();
  const redisBefore = redis ? cpuMicros(redis.pid) : 0;
  const { requests, seconds } = await drive(cluster, REQUESTS, SECONDS);
  return {
    requestsPerSecond: requests / seconds,
    handlerCpuMicros: (cluster.cpuMicros() - cpuBefore) / requests,
    redisCpuMicros: redis ? (cpuMicros(redis.pid) - redisBefore) / requests : 0,
    requests,
    load: loadavg()[0]!,
  };
}

export async function runLimitsBench(): Promise<LimitsResult> {
  const started = performance.now();
  const redis = await startRedis();
  const storage = await startLocalS3();
  const clusters: HandlerCluster[] = [];
  try {
    const base: HandlerProcessConfig = { storage: storage.handlerSettings };
    const plain = await startHandlerCluster({ processes: PROCESSES, config: base });
    clusters.push(plain);
    const limited = await startHandlerCluster({ processes: PROCESSES, config: { ...base, limits: LIMITS, redisUrl: redis.url } });
    clusters.push(limited);
    const memory = await startHandlerCluster({ processes: PROCESSES, config: { ...base, limits: LIMITS } });
    clusters.push(memory);
    const byName = { plain, memory, redis: limited };
    for (const cluster of clusters) await drive(cluster, WARMUP, 30);
    const samples = { plain: [] as LimitsSample[], memory: [] as LimitsSample[], redis: [] as LimitsSample[] };
    const names = ['plain', 'memory', 'redis'] as const;
    for (let round = 0; round < ROUNDS; round++) {
      // Each cluster first, second and last in turn.
      const order = names.map((_, index) => names[(index + round) % names.length]!);
      if (round % 2 === 1) order.reverse();
      for (const which of order) {
        const sample = await measure(byName[which], which === 'redis' ? redis : undefined);
        samples[which].push(sample);
        console.log(
          `[limits] round ${round + 1}/${ROUNDS} ${which}: ${sample.requestsPerSecond.toFixed(0)} req/s, handlers ${sample.handlerCpuMicros.toFixed(0)} µs CPU/preparation` +
            (which === 'redis' ? `, redis-server ${sample.redisCpuMicros.toFixed(0)} µs` : '') +
            `, load ${sample.load.toFixed(1)}`,
        );
      }
    }
    const errors = (await limited.errors()).reduce((sum, process) => sum + process.count, 0);
    if (errors > 0) throw new Error(`the limited handlers reported ${errors} errors`);
    const result: LimitsResult = {
      machine: describeMachine([], {
        ioredis: packageVersion('ioredis', join(BENCH_DIR, '..', 'packages', 'upload-server')),
        'redis-server': /v=(\S+)/.exec(toolVersion('redis-server') ?? '')?.[1],
      }),
      seconds: (performance.now() - started) / 1000,
      settings:
        `${PROCESSES} handler processes per cluster, ${CONNECTIONS} preparations in flight spread over them in turn, ` +
        `${ROUNDS} paired rounds of at most ${REQUESTS} requests or ${SECONDS} s per cluster, ${WARMUP} warm-up requests each; ` +
        `${SUBJECTS} subjects in turn; limits: preparations per minute, files and bytes per day, uploads in flight (all granted)`,
      command: 'pnpm --filter @upbeam/upload-server build && pnpm --filter @upbeam/bench bench:limits',
      plain: samples.plain,
      memory: samples.memory,
      redis: samples.redis,
      memoryRequestsPerSecond: pairedFigures(samples.memory.map((s) => s.requestsPerSecond), samples.plain.map((s) => s.requestsPerSecond))!,
      memoryHandlerCpu: pairedFigures(samples.memory.map((s) => s.handlerCpuMicros), samples.plain.map((s) => s.handlerCpuMicros))!,
      requestsPerSecond: pairedFigures(samples.redis.map((s) => s.requestsPerSecond), samples.plain.map((s) => s.requestsPerSecond))!,
      handlerCpu: pairedFigures(samples.redis.map((s) => s.handlerCpuMicros), samples.plain.map((s) => s.handlerCpuMicros))!,
    };
    await saveResult('limits', result);
    return result;
  } finally {
    for (const cluster of clusters) await cluster.stop();
    await redis.stop();
    await storage.close();
    agent.destroy();
  }
}

const result = await runLimitsBench();
const { requestsPerSecond: rps, handlerCpu: cpu, memoryRequestsPerSecond: mrps, memoryHandlerCpu: mcpu } = result;
console.log(
  `[limits] memory store / no limits: req/s ${mrps.ratio.median.toFixed(3)}× (${mrps.ratio.low.toFixed(3)}–${mrps.ratio.high.toFixed(3)}), ` +
    `handler CPU per preparation ${mcpu.ratio.median.toFixed(3)}× (${mcpu.ratio.low.toFixed(3)}–${mcpu.ratio.high.toFixed(3)})`,
);
console.log(
  `[limits] Redis store / no limits: req/s ${rps.ratio.median.toFixed(3)}× (${rps.ratio.low.toFixed(3)}–${rps.ratio.high.toFixed(3)}), ` +
    `handler CPU per preparation ${cpu.ratio.median.toFixed(3)}× (${cpu.ratio.low.toFixed(3)}–${cpu.ratio.high.toFixed(3)})`,
);
console.log(`[limits] wrote ${await writeReport()}`);
