/**
 * Quotas and rate limits past one process: three handler processes (`@upbeam/handler-cluster`: the built package
 * through toNodeHandler, each its own Node process) behind a round-robin proxy, counting in one real redis-server
 * (`redisLimitStore`, append-only file so that a killed Redis comes back with its counts), storage the run's
 * radosgw. Every request goes through the proxy, so that consecutive ones land on different processes.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { ListMultipartUploadsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { startHandlerCluster, type HandlerCluster } from '@upbeam/handler-cluster';
import { startRedis, type RedisServer } from '@upbeam/redis-server';
import { redisLimitStore } from '../../src/redis/index';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const connection = inject('radosgw');
/** Fixed windows of a year: no test run crosses one (but by bad luck once a year). */
const YEAR = 365 * 86_400;
const PREFIX = 'scale:limits:';
const MiB = 1024 * 1024;

/** Per subject: N preparations and B bytes in the window. */
const N = 6;
const B = 6_000;
const LIMITS = { preparations: { max: N, windowSeconds: YEAR }, bytes: { max: B, windowSeconds: YEAR } };

let redis: RedisServer;
let cluster: HandlerCluster;
let bucket: string;
let admin: Redis;
const agent = new Agent({ keepAlive: true, maxSockets: 48 });

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: Record<string, any>;
}

/** One POST of `body` through the proxy. */
function post(body: Record<string, unknown>): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${cluster.url}/api/upload`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (answer) => {
        let data = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (data += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode!, retryAfter: answer.headers['retry-after'] as string | undefined, body: data ? JSON.parse(data) : {} }));
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

const presigned = (user: string, filesize: number) => post({ filename: 'photo.jpg', filetype: 'image/jpeg', filesize, user, _upload: { strategy: 'presigned' } });

/** The bytes counted for `user` in Redis (the handler's limits are handler-level: scope `*`). */
async function countedBytes(user: string): Promise<number> {
  const keys = await admin.keys(`${PREFIX}b:${YEAR}:*:*:${user}`);
  const values = await Promise.all(keys.map((key) => admin.get(key)));
  return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
}

/** What a 429 must carry: its code for the limit, `Retry-After` equal to the body's `retryAfter`, at least 1 s. */
function expectRefusal(answer: Answer, limit: 'preparations' | 'bytes'): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ code: limit === 'preparations' ? 'RATE_LIMITED' : 'QUOTA_EXCEEDED', limit });
  expect(Number(answer.retryAfter)).toBe(answer.body.retryAfter);
  expect(answer.body.retryAfter).toBeGreaterThanOrEqual(1);
  expect(answer.body.url).toBeUndefined();
}

describe.skipIf(!connection)('limits over three handler processes sharing one Redis', () => {
  beforeAll(async () => {
    redis = await startRedis({ appendOnly: true });
    admin = new Redis(redis.url, { retryStrategy: () => 100 });
    admin.on('error', () => {});
    bucket = `limits-${randomBytes(4).toString('hex')}`;
    await createBucket(connection!, bucket, { allowedOrigins: ['*'] });
    const roleArn = await createUploadRole(connection!);
    cluster = await startHandlerCluster({
      processes: 3,
      config: { storage: tokenHandlerSettings(connection!, bucket, roleArn), limits: LIMITS, redisUrl: redis.url, prefix: PREFIX },
    });
  });
  afterAll(async () => {
    await cluster?.stop();
    admin?.disconnect();
    await redis?.stop();
    agent.destroy();
  });

  it('10 subjects firing 20x their allowance at once: exactly what fits is granted, bytes never over B, every refusal a 429 with its code and Retry-After', async () => {
    // Even subjects send 500-byte files: N preparations fit in B, the rate limit refuses. Odd ones send 1,500
    // bytes: 4 fit in B, the byte quota refuses (a refused preparation is not counted).
    const users = Array.from({ length: 10 }, (_, index) => ({ user: `user-${index}`, size: index % 2 === 0 ? 500 : 1500 }));
    const before = [...cluster.forwarded];
    const answers = await Promise.all(
      users.flatMap(({ user, size }) => Array.from({ length: 20 * N }, async () => ({ user, size, answer: await presigned(user, size) }))),
    );
    for (const { user, size } of users) {
      const own = answers.filter((entry) => entry.user === user).map((entry) => entry.answer);
      const granted = own.filter((answer) => answer.status === 200);
      expect(granted.length, user).toBe(Math.min(N, Math.floor(B / size)));
      for (const answer of granted) expect(answer.body.url).toMatch(/^http/);
      for (const answer of own.filter((entry) => entry.status !== 200)) expectRefusal(answer, size === 500 ? 'preparations' : 'bytes');
      expect(await countedBytes(user)).toBe(granted.length * size);
      expect(await countedBytes(user)).toBeLessThanOrEqual(B);
    }
    // Spread over the three processes by the proxy.
    const spread = cluster.forwarded.map((count, index) => count - before[index]!);
    for (const count of spread) expect(count).toBeGreaterThanOrEqual(Math.floor(answers.length / 3));
  });

  it('with Redis killed mid-run: 503 LIMITS_UNAVAILABLE and nothing prepared (fail-closed); after the restart the counts are right', async () => {
    const user = 'user-outage';
    const granted: Answer[] = [];
    for (let index = 0; index < 2; index += 1) granted.push(await presigned(user, 100));
    expect(granted.map((answer) => answer.status)).toEqual([200, 200]);

    await redis.kill();
    const errorsBefore = (await cluster.errors()).reduce((sum, process) => sum + process.count, 0);
    const during = await Promise.all(Array.from({ length: 30 }, () => presigned(user, 100)));
    const multipart = await post({ filename: 'big.bin', filetype: 'application/octet-stream', filesize: 8 * MiB, user, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * MiB } } });
    for (const answer of [...during, multipart]) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'LIMITS_UNAVAILABLE', error: 'Upload limits cannot be checked right now. Try again later.' });
      expect(answer.body.url).toBeUndefined();
      expect(answer.body.uploadId).toBeUndefined();
    }
    // Nothing prepared on storage: no multipart upload was created.
    const s3 = radosgwS3Client(connection!);
    try {
      const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      expect(uploads.Uploads ?? []).toEqual([]);
    } finally {
      s3.destroy();
    }
    // Each process told its onError (the store's rejection).
    const errorsAfter = (await cluster.errors()).reduce((sum, process) => sum + process.count, 0);
    expect(errorsAfter - errorsBefore).toBeGreaterThanOrEqual(31);

    await redis.restart();
    // The processes reconnect on their own; another subject probes until they count again.
    await expect.poll(async () => (await Promise.all(cluster.urls.map(() => presigned('user-probe', 1)))).map((answer) => answer.status), { timeout: 15_000, interval: 200 }).not.toContain(503);
    // The Redis came back with its append-only file: 2 counted before, none during, N - 2 left.
    const after = await Promise.all(Array.from({ length: 40 }, () => presigned(user, 100)));
    expect(after.filter((answer) => answer.status === 200).length).toBe(N - 2);
    for (const answer of after.filter((entry) => entry.status !== 200)) expectRefusal(answer, 'preparations');
    expect(await countedBytes(user)).toBe(N * 100);
  });

  it('with Redis killed while preparations are in flight: each answer is granted, refused or 503; nothing is granted past N, before or after the restart', async () => {
    const user = 'user-in-flight';
    const counted = async () => Number((await Promise.all((await admin.keys(`${PREFIX}p:${YEAR}:*:${user}`)).map((key) => admin.get(key)))).reduce((sum, value) => sum + Number(value ?? 0), 0));
    const answers: Answer[] = [];
    let sent = 0;
    let killed: Promise<void> | undefined;
    // 6 at a time; Redis is killed once 3 have been answered, while others are on their way.
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (sent < 48) {
          sent += 1;
          answers.push(await presigned(user, 10));
          if (answers.length === 3) killed = redis.kill();
        }
      }),
    );
    await killed;
    expect(answers.every((answer) => [200, 429, 503].includes(answer.status))).toBe(true);
    for (const answer of answers.filter((entry) => entry.status === 503)) expect(answer.body).toMatchObject({ code: 'LIMITS_UNAVAILABLE' });
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0);
    const grantedBefore = answers.filter((answer) => answer.status === 200).length;
    expect(grantedBefore).toBeGreaterThanOrEqual(3);

    await redis.restart();
    await expect.poll(async () => (await Promise.all(cluster.urls.map(() => presigned('user-probe-2', 1)))).map((answer) => answer.status), { timeout: 15_000, interval: 200 }).not.toContain(503);
    // Redis counted every reservation it made (append-only, fsynced): at least the ones granted, at most N. One
    // whose answer was lost with the connection (the script ran, the reply never came) was answered 503: it
    // stays counted, which is the safe side of fail-closed.
    const before = await counted();
    expect(before).toBeGreaterThanOrEqual(grantedBefore);
    expect(before).toBeLessThanOrEqual(N);
    const after = await Promise.all(Array.from({ length: 20 }, () => presigned(user, 10)));
    expect(after.filter((answer) => answer.status === 200).length).toBe(N - before);
    expect(await counted()).toBe(N);
  });

  it('an aborted multipart upload gives its bytes back', async () => {
    const user = 'user-abort';
    const create = () =>
      post({ filename: 'big.bin', filetype: 'application/octet-stream', filesize: 4_000, user, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * MiB } } });
    const first = await create();
    expect(first.status).toBe(200);
    expectRefusal(await create(), 'bytes');
    const aborted = await post({ filename: 'big.bin', filetype: 'application/octet-stream', filesize: 4_000, user, _upload: { strategy: 'presigned', multipart: { action: 'abort', ticket: first.body.ticket } } });
    expect(aborted).toMatchObject({ status: 200, body: { aborted: true } });
    expect(await countedBytes(user)).toBe(0);
    expect((await create()).status).toBe(200);
  });

  it('an expired presigned upload gives its bytes back (the store, expiresAt past: the handler holds a receipt 2 h)', async () => {
    const user = 'user-expired';
    // A presigned reservation whose receipt has ended unreported, made in the handlers' Redis as they make one.
    const store = redisLimitStore(admin, { prefix: PREFIX });
    expect(await store.reserve({ subject: `*:${user}`, id: 'uploads/expired.jpg', bytes: B, expiresAt: Date.now() - 1, limits: LIMITS })).toEqual({ granted: true });
    expect(await countedBytes(user)).toBe(B);
    // The next preparation, in any process, finds it expired: its bytes are back, so B fits again.
    expect((await presigned(user, B)).status).toBe(200);
    expect(await countedBytes(user)).toBe(B);
    expect(await store.settle('uploads/expired.jpg', B)).toBeUndefined();
  });

  it('a completed upload settles to the stored size, not the declared one (temporary token: 1,000 bytes stored of 4,000 declared)', async () => {
    const user = 'user-settle';
    const prepare = () => post({ filename: 'notes.txt', filetype: 'text/plain', filesize: 4_000, user, _upload: { strategy: 'temporary-token' } });
    const prepared = await prepare();
    expect(prepared.status).toBe(200);
    expect(await countedBytes(user)).toBe(4_000);
    expectRefusal(await prepare(), 'bytes');
    const { AccessKeyId, SecretAccessKey, SessionToken } = prepared.body.token.Credentials;
    const s3 = new S3Client({
      endpoint: connection!.endpoint,
      region: connection!.region,
      forcePathStyle: true,
      credentials: { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: SessionToken },
    });
    try {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: prepared.body.key, Body: randomBytes(1_000), ContentType: 'text/plain' }));
    } finally {
      s3.destroy();
    }
    const completed = await post({ filename: 'notes.txt', filetype: 'text/plain', filesize: 4_000, user, _upload: { strategy: 'temporary-token', complete: { key: prepared.body.key, receipt: prepared.body.receipt } } });
    expect(completed).toMatchObject({ status: 200, body: { key: prepared.body.key, size: 1_000 } });
    expect(await countedBytes(user)).toBe(1_000);
    // 1,000 + 4,000 fit in B = 6,000 now; a second report of the same upload changes nothing.
    await post({ filename: 'notes.txt', filetype: 'text/plain', filesize: 4_000, user, _upload: { strategy: 'temporary-token', complete: { key: prepared.body.key, receipt: prepared.body.receipt } } });
    expect(await countedBytes(user)).toBe(1_000);
    expect((await prepare()).status).toBe(200);
    expect(await countedBytes(user)).toBe(5_000);
  });
});
