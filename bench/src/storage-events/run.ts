/**
 * The storage-events consumer (`consumeStorageEvents` of `@upbeam/upload-server/amqp`) at 1,000 uploads: a real
 * radosgw (`@upbeam/ceph-rgw`) whose bucket notifications reach a real RabbitMQ (`@upbeam/rabbitmq`) through radosgw's
 * HTTP push and the forwarder (radosgw 16.2.15's own AMQP push crashes it under concurrent PUTs), consumer processes
 * of the built package (the scale test's packages/upload-server/test/scale/storage-events-consumer.mjs) whose hook appends a line.
 * - Live: 1,000 presigned uploads (16 in flight, prepared by the handler in this process) with 3 consumers running:
 *   queue lag per object, from the notification's `eventTime` (radosgw's clock, this machine's) to the hook's run.
 * - Backlog: 1,000 notifications queued while no consumer runs, then 1 (and, on a fresh queue, 3) consumers
 *   started: objects completed per second, from the consumers' start to the last hook.
 * `pnpm --filter @upbeam/bench bench:storage-events` (build first: `pnpm --filter @upbeam/upload-server build`);
 * writes `results/storage-events.json` and rewrites RESULTS.md.
 */
import '../lib/loopback-guard';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutBucketNotificationConfigurationCommand } from '@aws-sdk/client-s3';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { createBucket, radosgwS3Client, startRadosgw, type Radosgw } from '@upbeam/ceph-rgw';
import { startForwarder, startRabbitmq, type Forwarder, type Rabbitmq } from '@upbeam/rabbitmq';
import { createUploadHandler } from '@upbeam/upload-server';
import { describeMachine, packageVersion, toolVersion } from '../lib/machine';
import { BENCH_DIR } from '../lib/paths';
import { saveResult, type ResultMeta } from '../lib/results';
import { median } from '../lib/stats';
import { writeReport } from '../report';

const UPLOADS = 1000;
const CONCURRENCY = 16;
const EXCHANGE = 'storage-events';
const CONSUMER = fileURLToPath(new URL('../../../packages/upload-server/test/scale/storage-events-consumer.mjs', import.meta.url));

export interface StorageEventsResult extends ResultMeta {
  command: string;
  settings: string;
  live: { consumers: number; uploads: number; uploadSeconds: number; lagMs: { median: number; p95: number; max: number }; load: number };
  backlog: { consumers: number; objects: number; seconds: number; perSecond: number; load: number }[];
}

export async function runStorageEventsBench(): Promise<void> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'upbeam-bench-events-'));
  let radosgw: Radosgw | undefined;
  let broker: Rabbitmq | undefined;
  let forwarder: Forwarder | undefined;
  const children: ChildProcess[] = [];
  try {
    [radosgw, broker] = await Promise.all([startRadosgw(), startRabbitmq()]);
    forwarder = await startForwarder(broker.url, EXCHANGE);
    const rgw = radosgw;
    const amqp = broker;
    const sns = new SNSClient({ endpoint: rgw.endpoint, region: rgw.region, credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey } });
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: 'bench-events', Attributes: { 'push-endpoint': forwarder.url, persistent: 'false' } }));
    sns.destroy();

    /** A bucket notifying the topic of objects under `events/`; the handler's config for it. */
    const bucketOf = async (name: string) => {
      await createBucket(rgw, name, { allowedOrigins: ['*'] });
      const admin = radosgwS3Client(rgw);
      await admin.send(
        new PutBucketNotificationConfigurationCommand({
          Bucket: name,
          NotificationConfiguration: {
            TopicConfigurations: [{ Id: 'uploads', TopicArn, Events: ['s3:ObjectCreated:*'], Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'events/' }] } } }],
          },
        }),
      );
      admin.destroy();
      const storage = { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey, bucket: name, region: rgw.region, endpoint: rgw.endpoint, forcePathStyle: true };
      return storage;
    };
    const startConsumers = async (count: number, storage: object, queue: string, hookFile: string) =>
      Promise.all(
        Array.from({ length: count }, async () => {
          const child = spawn(process.execPath, [CONSUMER], {
            env: { ...process.env, UPBEAM_CONSUMER: JSON.stringify({ storage, keyPrefix: 'events/', hookFile, amqp: { url: amqp.url, queue, exchange: EXCHANGE } }) },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          children.push(child);
          await new Promise<void>((resolve, reject) => {
            child.once('exit', (code) => reject(new Error(`consumer exited (${code})`)));
            child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
          });
          return child;
        }),
      );
    const stopConsumers = async (list: ChildProcess[]) =>
      Promise.all(list.map((child) => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM')))));
    const uploadAll = async (storage: { bucket: string }, prefix: string) => {
      const handler = createUploadHandler({ ...storage, routes: { files: { keyPrefix: 'events/', onUploadComplete: () => {} } }, onError: () => {} });
      const keys: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < UPLOADS) {
            const index = next++;
            const body = randomBytes(100);
            const prepared = await handler(
              new Request('http://127.0.0.1/api/s3-upload', {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ route: 'files', filename: `${prefix}${index}.bin`, filetype: 'application/octet-stream', filesize: body.byteLength, _upload: { strategy: 'presigned' } }),
              }),
            );
            const answer = (await prepared.json()) as { url: string; headers: Record<string, string>; key: string };
            const put = await fetch(answer.url, { method: 'PUT', headers: answer.headers, body });
            if (!prepared.ok || !put.ok) throw new Error(`upload ${index} failed: ${prepared.status} ${put.status}`);
            keys.push(answer.key);
          }
        }),
      );
      return keys;
    };
    /** The hook's run time (ms) by key, once every key ran. */
    const hookTimes = async (hookFile: string, keys: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const times = new Map<string, number>();
        for (const line of (existsSync(hookFile) ? readFileSync(hookFile, 'utf8') : '').split('\n').filter(Boolean)) {
          const [, key, , at] = line.split(' ');
          if (!times.has(key!)) times.set(key!, Number(at));
        }
        if (keys.every((key) => times.has(key))) return times;
        if (Date.now() > deadline) throw new Error(`only ${keys.filter((key) => times.has(key)).length} of ${keys.length} hooks ran`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };

    // Live: consumers running while the uploads happen. Each run has its own bucket and queue; a queue also gets the
    // later runs' messages (bound to every key), which nobody reads.
    const liveConsumers = 3;
    const liveStorage = await bucketOf('bench-live');
    const liveHooks = join(dir, 'live.log');
    const live = await startConsumers(liveConsumers, liveStorage, 'live', liveHooks);
    const uploadStart = performance.now();
    const liveKeys = await uploadAll(liveStorage, 'live');
    const uploadSeconds = (performance.now() - uploadStart) / 1000;
    const liveTimes = await hookTimes(liveHooks, liveKeys, 180_000);
    const lags = liveKeys.map((key) => liveTimes.get(key)! - forwarder!.eventTimes.get(key)!).sort((a, b) => a - b);
    const liveLoad = loadavg()[0]!;
    await stopConsumers(live);

    // Backlog: the queue declared (a consumer started and stopped), 1,000 notifications queued, then the consumers.
    const backlog: StorageEventsResult['backlog'] = [];
    for (const consumers of [1, 3]) {
      const queue = `backlog-${consumers}`;
      const storage = await bucketOf(`bench-backlog-${consumers}`);
      const hookFile = join(dir, `${queue}.log`);
      await stopConsumers(await startConsumers(1, storage, queue, hookFile));
      const keys = await uploadAll(storage, queue);
      const from = Date.now();
      const running = await startConsumers(consumers, storage, queue, hookFile);
      const times = await hookTimes(hookFile, keys, 300_000);
      const seconds = (Math.max(...times.values()) - from) / 1000;
      backlog.push({ consumers, objects: keys.length, seconds, perSecond: keys.length / seconds, load: loadavg()[0]! });
      await stopConsumers(running);
    }

    const result: StorageEventsResult = {
      machine: describeMachine(['@upbeam/upload-server'], {
        // The consumer's amqplib is upload-server's (its dev dependency; a peer for apps), not the bench's.
        amqplib: packageVersion('amqplib', join(BENCH_DIR, '..', 'packages', 'upload-server')),
        // From the install's folder name: `rabbitmqctl version` would start an epmd on the default port.
        rabbitmq: readdirSync('/usr/lib/rabbitmq/lib').find((name) => name.startsWith('rabbitmq_server-'))?.slice('rabbitmq_server-'.length),
        radosgw: toolVersion('radosgw'),
      }),
      seconds: (performance.now() - started) / 1000,
      command: 'pnpm --filter @upbeam/bench bench:storage-events',
      settings:
        `${UPLOADS} presigned uploads of 100 B (${CONCURRENCY} in flight) to radosgw, notifications through its HTTP push and a forwarder ` +
        `into RabbitMQ (persistent messages, durable queue), consumers with prefetch 10, each its own process`,
      live: {
        consumers: liveConsumers,
        uploads: liveKeys.length,
        uploadSeconds,
        lagMs: { median: median(lags), p95: lags[Math.floor(lags.length * 0.95)]!, max: lags[lags.length - 1]! },
        load: liveLoad,
      },
      backlog,
    };
    await saveResult('storage-events', result);
    console.log(JSON.stringify({ live: result.live, backlog }, null, 2));
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await forwarder?.close();
    await broker?.stop();
    await radosgw?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runStorageEventsBench();
  console.log(`[bench] wrote ${await writeReport()}`);
}
