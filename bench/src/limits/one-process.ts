/**
 * The one-process view of `run.ts`: presigned preparations through the Fetch handler of the built package (no
 * HTTP), without limits (`plain`) or with run.ts's limits in the memory store (`limits`) or in a redis-server
 * (`redis`), on `@upbeam/local-s3`; 1,000 subjects in turn. 3,000 warm-up preparations, then 5 runs of N (default 3,000): prints the CPU time
 * (user + system) of this process per preparation. For a profile, run it under `node --cpu-prof`:
 * `pnpm --filter @upbeam/upload-server build`, then in bench/:
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof/limits --import tsx src/limits/one-process.ts limits 3000`.
 * Alternate `plain` and `limits` processes: the machine's load moves each one. Figures in RESULTS.md 2d (prose).
 * One preparation at a time: with `redis`, each EVALSHA is a socket write of its own, a system call that wakes
 * redis-server and costs this process far more than under run.ts's concurrent load (read the cluster's figures).
 */
import '../lib/loopback-guard';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startLocalS3 } from '@upbeam/local-s3';
import { startRedis } from '@upbeam/redis-server';
import { createUploadHandler } from '@upbeam/upload-server';
import { redisLimitStore } from '@upbeam/upload-server/redis';

const mode = process.argv[2] === 'limits' || process.argv[2] === 'redis' ? process.argv[2] : 'plain';
const N = Number(process.argv[3] ?? 3_000);
const LIMITS = {
  preparations: { max: 1e12, windowSeconds: 60 },
  files: { max: 1e12, windowSeconds: 86_400 },
  bytes: { max: 1e15, windowSeconds: 86_400 },
  inFlight: 1_000_000,
};

const storage = await startLocalS3();
const redisServer = mode === 'redis' ? await startRedis() : undefined;
// ioredis as the handler cluster gets it: upload-server's dev dependency (an optional peer of the package).
type RedisClient = Parameters<typeof redisLimitStore>[0] & { once(event: 'ready', listener: () => void): void; disconnect(): void };
const { Redis } = createRequire(join(import.meta.dirname, '../../../packages/upload-server/package.json'))('ioredis') as {
  Redis: new (url: string, options: object) => RedisClient;
};
const redis = redisServer && new Redis(redisServer.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
if (redis) await new Promise((resolve) => redis.once('ready', resolve));
const handler = createUploadHandler({
  ...storage.handlerSettings,
  ...(mode === 'plain' ? {} : { limits: LIMITS }),
  ...(redis ? { limitStore: redisLimitStore(redis) } : {}),
  onBeforeUpload: ({ body }) => ({ subject: String(body.user) }),
  onError: (error) => console.error(error),
});

async function prepare(index: number): Promise<void> {
  const body = JSON.stringify({ filename: 'holiday photo (1).jpg', filetype: 'image/jpeg', filesize: 2_345_678, user: `user-${index % 1_000}`, _upload: { strategy: 'presigned' } });
  const answer = await handler(new Request('http://127.0.0.1/api/upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
  if (answer.status !== 200) throw new Error(`${answer.status} ${await answer.text()}`);
  await answer.text();
}

for (let index = 0; index < 3_000; index++) await prepare(index);
const runs: number[] = [];
for (let run = 0; run < 5; run++) {
  const before = process.cpuUsage();
  for (let index = 0; index < N; index++) await prepare(index);
  const used = process.cpuUsage(before);
  runs.push((used.user + used.system) / N);
}
runs.sort((a, b) => a - b);
console.log(`${mode}: µs CPU per preparation, 5 runs: ${runs.map((micros) => micros.toFixed(0)).join(' ')}; median ${runs[2]!.toFixed(0)}`);
redis?.disconnect();
await redisServer?.stop();
await storage.close();
