/**
 * What the upload record costs a preparation (`packages/upload-server/src/upload-record.ts`): with
 * `onUploadComplete` on a route, every preparation writes one small object to storage, in parallel with the
 * URL signing (presigned) or the STS call (temporary-token). Measured in pairs on real storage on 127.0.0.1,
 * `@upbeam/local-s3` in a process of its own and, unless `RECORD_RADOSGW=0`, Ceph radosgw: Upbeam's handler
 * without a hook beside the same handler with `onUploadComplete`, for both strategies (STS: the local stub),
 * and (bench only, unless `RECORD_LEAN=0`) the hook-less presigned handler with a bare record-sized PUT beside
 * it (`lean-put.ts`: node:http, no fetch, no record signing): the write's transport alone, to set beside the
 * handler's own write (its presigned URL sent with `fetch`). Servers: `record-server.ts`.
 *
 * Per storage: (1) the storage requests of one preparation, counted by a proxy in front of storage with the
 * handler in this process; (2) rounds in which each server (own process, core 1) takes autocannon's load
 * (own process, core 0, as `run.ts`): req/s, p50/p99 and the server's CPU time per request; then 300
 * preparations one after the other from this process, timed to the microsecond: the latency the record adds
 * to one preparation when storage is idle; (3) a CPU profile of each presigned server, its self time per
 * request by group of code (the raw profiles stay in `results/`, not committed). Ratios are paired within a
 * round (the pair runs back to back).
 * `pnpm --filter @upbeam/bench bench:prepare-record`; writes `results/prepare-record.json`.
 */
import { access, cp, mkdir, mkdtemp, readFile, rm, symlink, unlink } from 'node:fs/promises';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createBucket, startRadosgw, type Radosgw } from '@upbeam/ceph-rgw';
import type { createUploadHandler as CreateUploadHandler } from '@upbeam/upload-server';
import { startChild, HAS_TASKSET, type Child } from '../lib/child';
import { describeMachine, packageVersion } from '../lib/machine';
import type { CpuProfile } from '../lib/cpu-profile';
import { BENCH_DIR, RESULTS_DIR, TMP_DIR } from '../lib/paths';
import { pidsMatching } from '../lib/processes';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';
import { loadOnce, serverCpuMicros } from './drive';

/** Rounds per storage; each runs every variant under load, then one after the other. */
export const RECORD_ROUNDS = Number(process.env.ROUNDS ?? 9);
/** Seconds of load per variant and round. */
export const RECORD_SECONDS = Number(process.env.SECONDS_PER_RUN ?? 3);
/** Preparations one after the other per variant and round (the latency the record adds to one). */
export const RECORD_SEQUENTIAL = 300;
/** Preparations counted through the proxy per variant. */
const COUNTED = 50;
const CONNECTIONS = 10;
const WARMUP_REQUESTS = 3_000;
/** Requests answered while a presigned server profiles itself. */
const PROFILED_REQUESTS = 3_000;

const FILE = { filename: 'holiday photo (1).jpg', filetype: 'image/jpeg', filesize: 2_345_678 };
const STRATEGIES = ['presigned', 'token'] as const;
type Strategy = (typeof STRATEGIES)[number];

interface Variant {
  id: string;
  strategy: Strategy;
  hook: boolean;
  body: string;
  /** Bench only, in the presigned group: no hook, and a record-sized PUT without the SDK beside it (`lean-put.ts`). */
  lean?: boolean;
}

const bodyOf = (strategy: Strategy) => JSON.stringify({ ...FILE, _upload: { strategy: strategy === 'token' ? 'temporary-token' : 'presigned' } });

const VARIANTS: Variant[] = [
  ...STRATEGIES.flatMap((strategy) =>
    [false, true].map((hook) => ({ id: `record-${strategy}-${hook ? 'hook' : 'plain'}`, strategy, hook, body: bodyOf(strategy) })),
  ),
  ...(process.env.RECORD_LEAN === '0' ? [] : [{ id: 'record-presigned-lean', strategy: 'presigned' as const, hook: false, body: bodyOf('presigned'), lean: true }]),
];

export interface RecordSample {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
  cpuMicrosPerRequest: number;
  /** Median latency of the preparations one after the other, in microseconds. */
  sequentialMicros: number;
  load: number;
}

export interface RecordPair {
  strategy: Strategy;
  plain: RecordSample[];
  hook: RecordSample[];
  /** Presigned only: no hook, with a record-sized PUT without the SDK beside it (bench only, `lean-put.ts`). */
  lean?: RecordSample[];
  /** Storage requests per preparation, by method (the proxy's count / preparations), without and with the hook. */
  requests: { plain: Record<string, number>; hook: Record<string, number> };
}

/** Self time of the presigned servers under load, per request by group of code (µs), from a CPU profile of each. */
export interface RecordProfile {
  requests: { plain: number; hook: number };
  /** Group (`AWS SDK`, Node's fetch, `node:*`, `@upbeam/upload-server`, `GC`, `other`) to µs per request. */
  plain: Record<string, number>;
  hook: Record<string, number>;
}

export interface RecordStorageResult {
  storage: string;
  description: string;
  pairs: RecordPair[];
  profile?: RecordProfile;
  /** 1-minute load average over its rounds: lowest, median, highest. */
  load: [number, number, number];
}

export interface PrepareRecordResult extends ResultMeta {
  settings: string;
  command: string;
  storages: RecordStorageResult[];
}

interface StorageTarget {
  name: string;
  description: string;
  settings: { accessKeyId: string; secretAccessKey: string; bucket: string; region: string; endpoint: string; forcePathStyle: true };
  close(): Promise<void>;
}

/** Every thread of `pids` to `cpu` (a thread made later takes its maker's). */
function pin(pids: number[], cpu: number): void {
  if (!HAS_TASKSET) return;
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    } catch {
      // exited meanwhile
    }
  }
}

async function localS3Target(): Promise<StorageTarget> {
  const directory = await mkdtemp(join('/dev/shm', 'upbeam-bench-record-'));
  const child = await startChild(join(BENCH_DIR, 'src', 'upload', 's3rver-process.ts'), [directory, '*'], { cpu: 0 });
  const ready = child.ready as Record<string, string>;
  return {
    name: 'local-s3',
    description: `@upbeam/local-s3 (@20minutes/s3rver ${packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3'))}) in a process of its own on core 0, objects in /dev/shm`,
    settings: { accessKeyId: ready.accessKeyId!, secretAccessKey: ready.secretAccessKey!, bucket: ready.bucket!, region: ready.region!, endpoint: ready.endpoint!, forcePathStyle: true },
    async close() {
      await child.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function radosgwTarget(): Promise<StorageTarget> {
  const radosgw: Radosgw = await startRadosgw();
  try {
    const bucket = `record-${Date.now().toString(36)}`;
    await createBucket(radosgw, bucket, { allowedOrigins: ['*'] });
    // Storage on core 0 (with the load generator), the handlers' core kept for them.
    pin(pidsMatching(radosgw.dir), 0);
    return {
      name: 'radosgw',
      description: 'Ceph radosgw (memstore OSD, objects in RAM; radosgw, monitor and OSD on core 0)',
      settings: { accessKeyId: radosgw.accessKeyId, secretAccessKey: radosgw.secretAccessKey, bucket, region: radosgw.region, endpoint: radosgw.endpoint, forcePathStyle: true },
      close: () => radosgw.close(),
    };
  } catch (error) {
    await radosgw.close();
    throw error;
  }
}

/**
 * A proxy in front of storage that counts requests by method (and which of them write a record): the handler
 * signs for the proxy's address, and the proxy sends the request on with the same Host header.
 */
async function countingProxy(endpoint: string): Promise<{ url: string; counts: Map<string, number>; close(): Promise<void> }> {
  const target = new URL(endpoint);
  const counts = new Map<string, number>();
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((incoming, outgoing) => {
    const kind = `${incoming.method} ${incoming.url?.includes('/.upbeam/uploads/') ? 'record' : 'other'}`;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (answer) => {
        const counted = `${kind} ${answer.statusCode}`;
        counts.set(counted, (counts.get(counted) ?? 0) + 1);
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: async () => {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      agent.destroy();
    },
  };
}

/**
 * A copy of upload-server's dist/ (beside a link to its node_modules, where its imports resolve), taken once
 * the build is there: every server of the run loads it, whatever rebuilds of the package happen meanwhile.
 */
async function snapshotServerDist(): Promise<{ dir: string; dist: string }> {
  const packageDir = join(BENCH_DIR, '..', 'packages', 'upload-server');
  for (let attempt = 0; ; attempt++) {
    try {
      await Promise.all(['index.js', 'adapters/node.js'].map((file) => access(join(packageDir, 'dist', file))));
      break;
    } catch (error) {
      if (attempt >= 60) throw error;
      await new Promise((done) => setTimeout(done, 2_000)); // a build in progress
    }
  }
  await mkdir(TMP_DIR, { recursive: true });
  const dir = await mkdtemp(join(TMP_DIR, 'record-server-'));
  await cp(join(packageDir, 'dist'), join(dir, 'dist'), { recursive: true });
  await symlink(join(packageDir, 'node_modules'), join(dir, 'node_modules'));
  return { dir, dist: join(dir, 'dist') };
}

/** Storage requests per preparation of `variant` (the handler in this process, storage behind the proxy). */
async function countRequests(target: StorageTarget, variant: Variant, stsUrl: string, dist: string): Promise<Record<string, number>> {
  const { createUploadHandler } = (await import(join(dist, 'index.js'))) as { createUploadHandler: typeof CreateUploadHandler };
  const proxy = await countingProxy(target.settings.endpoint);
  try {
    const handler = createUploadHandler({
      ...target.settings,
      endpoint: proxy.url,
      stsEndpoint: stsUrl,
      onError: (error) => console.error('[prepare-record]', error),
      ...(variant.hook ? { onUploadComplete: () => {} } : {}),
    });
    const prepare = async () => {
      const answer = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: variant.body }));
      if (answer.status !== 200) throw new Error(`${variant.id} through the proxy answered ${answer.status} ${await answer.text()}`);
    };
    await prepare(); // the first loads the SDK and builds the clients
    proxy.counts.clear();
    // One after the other, then as many at once as the load's connections (a retry would show there).
    for (let index = 0; index < COUNTED; index++) await prepare();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let index = 0; index < COUNTED; index++) await prepare();
      }),
    );
    const prepared = COUNTED * (1 + CONNECTIONS);
    return Object.fromEntries([...proxy.counts].map(([kind, count]) => [kind, count / prepared]));
  } finally {
    await proxy.close();
  }
}

/**
 * The group a profile's frame counts in: its script's URL (upload-server from the run's copy of its dist,
 * `.tmp/record-server-*`, or from the package) or, for V8's own entries, its name.
 */
function groupOf(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const { url, functionName } = frame;
  if (/node_modules\/@(aws-sdk|smithy)\//.test(url)) return 'AWS SDK (@aws-sdk, @smithy)';
  if (/\/record-server-[^/]+\/dist\/|\/packages\/upload-server\/|node_modules\/@upbeam\/upload-server\//.test(url)) return '@upbeam/upload-server';
  if (url.startsWith('node:internal/deps/undici/')) return "Node's fetch (undici, node:internal/deps/undici)";
  if (url.startsWith('node:')) return 'Node (node:*, fetch aside)';
  if (functionName === '(garbage collector)') return 'GC';
  return 'other (natives, V8, program, the bench server)';
}

/** Self time per request (µs) by group ({@link groupOf}) of a profile over `requests` requests; idle left out. */
export function profileByGroup(profile: CpuProfile, requests: number): Record<string, number> {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const groups: Record<string, number> = {};
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    const group = groupOf(frame);
    groups[group] = (groups[group] ?? 0) + (profile.timeDeltas[index] ?? 0) / requests;
  });
  return groups;
}

/** Profiles the server at `url` (`bench-control.ts`) over {@link PROFILED_REQUESTS}: µs of self time per request by group. */
async function profileGroups(url: string, body: string, name: string): Promise<{ requests: number; groups: Record<string, number> }> {
  const file = join(RESULTS_DIR, `prepare-record-${name}.cpuprofile`);
  const control = async (path: string) => {
    const response = await fetch(new URL(`/__bench/${path}`, url), { method: 'POST' });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  await control('profile/start');
  const figures = await loadOnce({ url, body, connections: CONNECTIONS, seconds: 30, amount: PROFILED_REQUESTS });
  await control(`profile/stop?file=${encodeURIComponent(file)}`);
  return { requests: figures.requests, groups: profileByGroup(JSON.parse(await readFile(file, 'utf8')) as CpuProfile, figures.requests) };
}

const sequentialAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One preparation from this process; resolves to its latency in microseconds. */
function timedPost(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const sent = httpRequest(url, { method: 'POST', agent: sequentialAgent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (answer) => {
      answer.resume();
      answer.on('end', () => {
        if (answer.statusCode !== 200) reject(new Error(`${url} answered ${answer.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1000);
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function sequentialMicros(url: string, body: string): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < RECORD_SEQUENTIAL; index++) times.push(await timedPost(url, body));
  return median(times);
}

async function measureStorage(target: StorageTarget, stsUrl: string, dist: string): Promise<RecordStorageResult> {
  const script = join(BENCH_DIR, 'src', 'prepare', 'record-server.ts');
  const children: Child[] = [];
  try {
    const requests = new Map<string, Record<string, number>>();
    for (const variant of VARIANTS) if (!variant.lean) requests.set(variant.id, await countRequests(target, variant, stsUrl, dist));
    const servers = new Map<string, string>();
    for (const variant of VARIANTS) {
      const child = await startChild(script, [variant.id], { cpu: 1, env: { STS_STUB_URL: stsUrl, RECORD_STORAGE: JSON.stringify(target.settings), RECORD_SERVER_DIST: dist } });
      children.push(child);
      const url = `http://127.0.0.1:${String(child.ready.port)}/api/s3-upload`;
      servers.set(variant.id, url);
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: variant.body });
      const answer = (await response.json()) as { url?: unknown; token?: { Credentials?: { SessionToken?: unknown } }; receipt?: unknown };
      const ok = response.status === 200 && (variant.strategy === 'presigned' ? typeof answer.url === 'string' : typeof answer.token?.Credentials?.SessionToken === 'string');
      if (!ok || (variant.hook && typeof answer.receipt !== 'string')) throw new Error(`${variant.id} on ${target.name} answered ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    }
    for (const variant of VARIANTS) {
      await loadOnce({ url: servers.get(variant.id)!, body: variant.body, connections: CONNECTIONS, seconds: 10, amount: WARMUP_REQUESTS });
      await sequentialMicros(servers.get(variant.id)!, variant.body);
    }
    const samples = new Map<string, RecordSample[]>(VARIANTS.map((variant) => [variant.id, []]));
    for (let round = 0; round < RECORD_ROUNDS; round++) {
      // Pairs back to back, which pair first and which of a pair first alternating by round.
      const pairOrder = round % 2 === 0 ? STRATEGIES : [...STRATEGIES].reverse();
      const order = pairOrder.flatMap((strategy) => {
        const pair = VARIANTS.filter((variant) => variant.strategy === strategy);
        // The lean write, where measured, between the two of its pair.
        if (pair.length === 3) pair.splice(1, 0, pair.splice(2, 1)[0]!);
        return Math.floor(round / 2) % 2 === 0 ? pair : [...pair].reverse();
      });
      for (const variant of order) {
        const url = servers.get(variant.id)!;
        const cpuBefore = await serverCpuMicros(url);
        const figures = await loadOnce({ url, body: variant.body, connections: CONNECTIONS, seconds: RECORD_SECONDS });
        const cpu = (await serverCpuMicros(url)) - cpuBefore;
        const sample: RecordSample = {
          requestsPerSecond: figures.requests / figures.seconds,
          p50: figures.p50,
          p99: figures.p99,
          failures: figures.failures,
          cpuMicrosPerRequest: cpu / figures.requests,
          sequentialMicros: await sequentialMicros(url, variant.body),
          load: loadavg()[0]!,
        };
        samples.get(variant.id)!.push(sample);
        console.log(
          `[prepare-record] ${target.name} round ${round + 1}/${RECORD_ROUNDS} ${variant.id}: ${sample.requestsPerSecond.toFixed(0)} req/s, ` +
            `${sample.cpuMicrosPerRequest.toFixed(0)} µs CPU/request, p50 ${sample.p50} ms, p99 ${sample.p99} ms, ` +
            `one at a time ${sample.sequentialMicros.toFixed(0)} µs, load ${sample.load.toFixed(1)}${sample.failures ? `, ${sample.failures} failures` : ''}`,
        );
      }
    }
    const loads = [...samples.values()].flat().map((sample) => sample.load);
    const plain = await profileGroups(servers.get('record-presigned-plain')!, VARIANTS[0]!.body, `${target.name}-plain`);
    const hook = await profileGroups(servers.get('record-presigned-hook')!, VARIANTS[1]!.body, `${target.name}-hook`);
    return {
      storage: target.name,
      description: target.description,
      pairs: STRATEGIES.map((strategy) => ({
        strategy,
        plain: samples.get(`record-${strategy}-plain`)!,
        hook: samples.get(`record-${strategy}-hook`)!,
        ...(samples.has(`record-${strategy}-lean`) ? { lean: samples.get(`record-${strategy}-lean`)! } : {}),
        requests: { plain: requests.get(`record-${strategy}-plain`)!, hook: requests.get(`record-${strategy}-hook`)! },
      })),
      load: [Math.min(...loads), median(loads), Math.max(...loads)],
      profile: { requests: { plain: plain.requests, hook: hook.requests }, plain: plain.groups, hook: hook.groups },
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

export async function runPrepareRecordBench(): Promise<PrepareRecordResult> {
  const started = performance.now();
  const stub = await startChild(join(BENCH_DIR, 'src', 'prepare', 'sts-stub.ts'), ['sts-stub'], { cpu: 0 });
  const stsUrl = `http://127.0.0.1:${String(stub.ready.port)}`;
  const storages: RecordStorageResult[] = [];
  const snapshot = await snapshotServerDist();
  try {
    const starts: (() => Promise<StorageTarget>)[] = [localS3Target];
    if (process.env.RECORD_RADOSGW !== '0') starts.push(radosgwTarget);
    for (const start of starts) {
      const target = await start();
      try {
        storages.push(await measureStorage(target, stsUrl, snapshot.dist));
      } finally {
        await target.close();
      }
    }
  } finally {
    await stub.stop();
    sequentialAgent.destroy();
    await unlink(join(snapshot.dir, 'node_modules')); // the link first: the package's own folder is never walked
    await rm(snapshot.dir, { recursive: true, force: true });
  }
  const result: PrepareRecordResult = {
    machine: describeMachine(['autocannon', '@aws-sdk/client-s3']),
    seconds: (performance.now() - started) / 1000,
    command: 'pnpm --filter @upbeam/bench bench:prepare-record',
    settings:
      `${RECORD_ROUNDS} rounds per storage; in each, every server under autocannon ${packageVersion('autocannon')} (${CONNECTIONS} connections, ${RECORD_SECONDS} s), ` +
      `then ${RECORD_SEQUENTIAL} preparations one after the other from the benchmark's process; the two of a pair back to back, ` +
      `orders alternating by round; a warm-up of ${WARMUP_REQUESTS} requests each first; ` +
      (HAS_TASKSET ? 'servers pinned to core 1, autocannon, the STS stub and storage on core 0' : 'no core pinning (taskset missing)') +
      "; every server loads a copy of upload-server's dist/ taken at the start" +
      '; NODE_ENV=production',
    storages,
  };
  await saveResult('prepare-record', result);
  return result;
}
