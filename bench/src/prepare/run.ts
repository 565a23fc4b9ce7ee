/**
 * Benchmark 2, preparation endpoint throughput: requests per second and p50/p99 latency under autocannon
 * on loopback, for Upbeam's handler (both strategies), the ceilings (a bare node:http JSON handler, and
 * a bare Fetch handler through the node adapter every handler here is mounted with: Upbeam's
 * `toNodeHandler`, which calls Upbeam's own handler without a Request and a Response), the
 * way the library we replace signs (`getSignedUrl` with a new command per request) and next-s3-upload's
 * own route. Each server runs in its own process pinned to core 1; autocannon runs in a process of its
 * own (`load.ts`) on core 0, with the STS stub. The variants take turns, round after round, so that a
 * noisy moment hits them all alike; each server's own CPU time per request is measured beside its req/s,
 * which a busy machine changes much less. Last, a CPU profile of Upbeam's presigned preparation
 * (`profile.ts`).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startChild, HAS_TASKSET, type Child } from '../lib/child';
import { describeMachine, packageVersion } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import type { ProfileSummary } from '../lib/cpu-profile';
import { median } from '../lib/stats';
import { loadOnce, serverCpuMicros } from './drive';
import { profilePresigned } from './profile';

/** Rounds of measurement (the median is reported); each round runs every variant once. */
export const PREPARE_ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Seconds of load per variant and round. */
export const PREPARE_SECONDS = Number(process.env.SECONDS_PER_RUN ?? 3);
/** Requests of each variant's warm-up. */
export const PREPARE_WARMUP_REQUESTS = 5_000;
/** Concurrent connections autocannon keeps open. */
export const PREPARE_CONNECTIONS = 10;

interface Variant {
  id: string;
  label: string;
  body: Record<string, unknown>;
  /** What a correct answer holds. */
  expect: 'url' | 'token';
  env?: Record<string, string>;
}

const FILE = { filename: 'holiday photo (1).jpg', filetype: 'image/jpeg' };

const ALL_VARIANTS: Variant[] = [
  { id: 'bare-http', label: 'ceiling: bare `node:http` JSON handler', body: { ...FILE, _upload: { strategy: 'presigned' } }, expect: 'url' },
  {
    id: 'bare-fetch',
    label: "ceiling: bare Fetch JSON handler through `toNodeHandler` (its Request/Response path, which every Fetch handler below but Upbeam's takes)",
    body: { ...FILE, _upload: { strategy: 'presigned' } },
    expect: 'url',
  },
  {
    id: 'upbeam-presigned',
    label: 'Upbeam `createUploadHandler`, presigned',
    body: { ...FILE, filesize: 2_345_678, _upload: { strategy: 'presigned' } },
    expect: 'url',
  },
  {
    id: 'upbeam-token',
    label: 'Upbeam `createUploadHandler`, temporary-token (STS: local stub)',
    body: { ...FILE, filesize: 2_345_678, _upload: { strategy: 'temporary-token' } },
    expect: 'token',
  },
  {
    id: 'getsignedurl',
    label: '`getSignedUrl` + new `PutObjectCommand` per request (one shared client)',
    body: { ...FILE, _upload: { strategy: 'presigned' } },
    expect: 'url',
  },
  {
    id: 'prepared-signer',
    label: "the SDK's `S3RequestPresigner` built once (Upbeam's signing before `sigv4-query.ts`; now only for addresses the probe resolves), bench only",
    body: { ...FILE, _upload: { strategy: 'presigned' } },
    expect: 'url',
  },
  {
    id: 'next-presigned',
    label: 'next-s3-upload 0.3.4 `APIRoute`, presigned (new S3Client per request)',
    body: { ...FILE, _nextS3: { strategy: 'presigned' } },
    expect: 'url',
  },
  {
    id: 'next-token',
    label: 'next-s3-upload 0.3.4 `APIRoute`, temporary-token (new STSClient per request; STS: local stub)',
    body: { ...FILE, _nextS3: { strategy: 'aws-sdk' } },
    expect: 'token',
  },
];

/**
 * The variants measured: all, or those named in `PREPARE_ONLY` (comma-separated ids, for a quick look
 * while working; `upbeam-presigned` is always kept, for the profile), and Upbeam presigned from another
 * build when `PREPARE_BASELINE_DIST` names its dist/ folder.
 */
const BASELINE: Variant[] = process.env.PREPARE_BASELINE_DIST
  ? [
      {
        id: 'upbeam-presigned-baseline',
        label: `Upbeam presigned, another build (${process.env.PREPARE_BASELINE_DIST})`,
        body: { ...FILE, filesize: 2_345_678, _upload: { strategy: 'presigned' } },
        expect: 'url',
        env: { PREPARE_BASELINE_DIST: process.env.PREPARE_BASELINE_DIST },
      },
    ]
  : [];

export const PREPARE_VARIANTS = process.env.PREPARE_ONLY
  ? [...ALL_VARIANTS, ...BASELINE].filter(
      (variant) => variant.id === 'upbeam-presigned' || variant.id === 'upbeam-presigned-baseline' || process.env.PREPARE_ONLY!.split(',').includes(variant.id),
    )
  : [...ALL_VARIANTS, ...BASELINE];

export interface PrepareSample {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** The server process's CPU time (user + system) per request answered, in microseconds. */
  cpuMicrosPerRequest?: number;
  /** 1-minute load average when the run ended. */
  load?: number;
}

export interface PrepareRow {
  id: string;
  label: string;
  samples: PrepareSample[];
  median: { requestsPerSecond: number; p50: number; p99: number; cpuMicrosPerRequest?: number };
}

export interface PrepareResult extends ResultMeta {
  settings: string;
  rows: PrepareRow[];
  /** 1-minute load average over the rounds: lowest, median, highest. */
  load?: [number, number, number];
  /** Where Upbeam's presigned preparation spends its CPU (`profile.ts`). */
  profile?: ProfileSummary & { requests: number; command: string };
}

async function post(url: string, body: unknown): Promise<{ status: number; answer: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, answer: (await response.json()) as Record<string, unknown> };
}

async function stubServed(stubUrl: string): Promise<number> {
  const response = await fetch(`${stubUrl}/__served`, { method: 'POST' });
  return ((await response.json()) as { served: number }).served;
}

async function load(url: string, variant: Variant, seconds: number): Promise<PrepareSample> {
  const cpuBefore = await serverCpuMicros(url);
  const figures = await loadOnce({ url, body: JSON.stringify(variant.body), connections: PREPARE_CONNECTIONS, seconds });
  const cpu = (await serverCpuMicros(url)) - cpuBefore;
  return {
    requestsPerSecond: figures.requests / figures.seconds,
    p50: figures.p50,
    p99: figures.p99,
    requests: figures.requests,
    failures: figures.failures,
    cpuMicrosPerRequest: cpu / figures.requests,
    load: loadavg()[0]!,
  };
}

export async function runPrepareBench(): Promise<PrepareResult> {
  const started = performance.now();
  const script = (name: string) => join(BENCH_DIR, 'src', 'prepare', name);
  const children: Child[] = [];
  try {
    const stub = await startChild(script('sts-stub.ts'), ['sts-stub'], { cpu: 0 });
    children.push(stub);
    const stubUrl = `http://127.0.0.1:${String(stub.ready.port)}`;
    const servers = new Map<string, string>();
    for (const variant of PREPARE_VARIANTS) {
      const child = await startChild(script('server.ts'), [variant.id], {
        cpu: 1,
        env: { STS_STUB_URL: stubUrl, AWS_ENDPOINT_URL_STS: stubUrl, ...variant.env },
      });
      children.push(child);
      const url = `http://127.0.0.1:${String(child.ready.port)}/api/s3-upload`;
      servers.set(variant.id, url);
      // A correct answer first: a benchmark of an endpoint that fails measures nothing.
      const before = await stubServed(stubUrl);
      const { status, answer } = await post(url, variant.body);
      const ok =
        status === 200 &&
        (variant.expect === 'url'
          ? typeof answer.url === 'string'
          : typeof (answer.token as { Credentials?: { SessionToken?: unknown } } | undefined)?.Credentials?.SessionToken === 'string');
      if (!ok) throw new Error(`${variant.id} answered ${status} ${JSON.stringify(answer).slice(0, 300)}`);
      if (variant.expect === 'token' && (await stubServed(stubUrl)) !== before + 1) {
        throw new Error(`${variant.id} did not ask the local STS stub`);
      }
    }
    // A warm-up each, not recorded: a count of requests (the JIT optimizes after a count of calls, which a
    // slow variant on a busy machine did not reach in 1 s), at most 10 s.
    for (const variant of PREPARE_VARIANTS) {
      await loadOnce({ url: servers.get(variant.id)!, body: JSON.stringify(variant.body), connections: PREPARE_CONNECTIONS, seconds: 10, amount: PREPARE_WARMUP_REQUESTS });
    }

    const samples = new Map<string, PrepareSample[]>(PREPARE_VARIANTS.map((variant) => [variant.id, []]));
    for (let round = 0; round < PREPARE_ROUNDS; round++) {
      // Rotate the order each round, so that no variant always follows the same one.
      const order = PREPARE_VARIANTS.map((_, index) => PREPARE_VARIANTS[(index + round) % PREPARE_VARIANTS.length]!);
      for (const variant of order) {
        const sample = await load(servers.get(variant.id)!, variant, PREPARE_SECONDS);
        samples.get(variant.id)!.push(sample);
        console.log(
          `[prepare] round ${round + 1}/${PREPARE_ROUNDS} ${variant.id}: ${sample.requestsPerSecond.toFixed(0)} req/s, ` +
            `${sample.cpuMicrosPerRequest?.toFixed(0)} µs CPU/request, p50 ${sample.p50} ms, p99 ${sample.p99} ms, load ${sample.load?.toFixed(1)}` +
            `${sample.failures ? `, ${sample.failures} failures` : ''}`,
        );
      }
    }
    const rows: PrepareRow[] = PREPARE_VARIANTS.map((variant) => {
      const list = samples.get(variant.id)!;
      return {
        id: variant.id,
        label: variant.label,
        samples: list,
        median: {
          requestsPerSecond: median(list.map((s) => s.requestsPerSecond)),
          p50: median(list.map((s) => s.p50)),
          p99: median(list.map((s) => s.p99)),
          cpuMicrosPerRequest: median(list.map((s) => s.cpuMicrosPerRequest ?? Number.NaN)),
        },
      };
    });
    const loads = [...samples.values()].flat().map((sample) => sample.load!);
    const profile = await profilePresigned(servers.get('upbeam-presigned')!, PREPARE_VARIANTS.find((v) => v.id === 'upbeam-presigned')!.body);
    const result: PrepareResult = {
      machine: describeMachine(['autocannon', '@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', 'next-s3-upload']),
      seconds: (performance.now() - started) / 1000,
      settings:
        `autocannon ${packageVersion('autocannon')}, ${PREPARE_CONNECTIONS} connections, ${PREPARE_SECONDS} s per run, ${PREPARE_ROUNDS} rounds ` +
        `(variants in turn, order rotated each round; a warm-up of ${PREPARE_WARMUP_REQUESTS} requests or 10 s each first), POST of a ~100-byte JSON body on 127.0.0.1; ` +
        (HAS_TASKSET
          ? 'each server in its own process pinned to core 1, autocannon in a process of its own and the STS stub on core 0'
          : 'each server and autocannon in processes of their own, no core pinning (taskset missing)') +
        '; NODE_ENV=production',
      rows,
      load: [Math.min(...loads), median(loads), Math.max(...loads)],
      profile,
    };
    await saveResult('prepare', result);
    return result;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
