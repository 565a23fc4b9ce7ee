/**
 * The Redis limit store (`@upbeam/upload-server/redis`, from its source: the built package runs in
 * limits-processes.test.ts) on a real redis-server started here: the shared LimitStore contract (the memory
 * store runs the same tests), then what only Redis has: several clients (as several processes would) reserving
 * at once, one script call per operation, keys that expire, a Redis that lost its scripts, and a Redis that is
 * down.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '@upbeam/redis-server';
import { redisLimitStore } from '../../src/redis/index';
import type { LimitReservation, UploadLimits } from '../../src/limit-store';
import { limitStoreContract } from '../../src/limit-store.contract';

let redis: RedisServer;
const clients: Redis[] = [];
let prefixes = 0;

/** A client of the test's Redis; quit after the file. */
function connect(options: RedisOptions = {}): Redis {
  const client = new Redis(redis.url, { lazyConnect: false, ...options });
  clients.push(client);
  return client;
}
const freshPrefix = () => `test:${process.pid}:${(prefixes += 1)}:`;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  await redis?.stop();
});

// Each test a store on its own client and key prefix: nothing counted yet.
limitStoreContract('redisLimitStore', { create: () => redisLimitStore(connect(), { prefix: freshPrefix() }) });

const LONG = 365 * 86_400;
let ids = 0;
const reservation = (limits: UploadLimits, fields: Partial<LimitReservation> = {}): LimitReservation => ({
  subject: 'route:alice',
  id: `upload-${(ids += 1)}`,
  bytes: 0,
  expiresAt: Date.now() + 3_600_000,
  limits,
  ...fields,
});

describe('redisLimitStore on one Redis', () => {
  it('is atomic across clients: 200 reservations at once from 5 clients grant exactly the max, bytes never over', async () => {
    const prefix = freshPrefix();
    const stores = Array.from({ length: 5 }, () => redisLimitStore(connect(), { prefix }));
    const limits = { files: { max: 17, windowSeconds: LONG }, bytes: { max: 10_000, windowSeconds: LONG }, inFlight: 50 };
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, index) => stores[index % 5]!.reserve(reservation(limits, { bytes: 500 + (index % 3) * 250 }))),
    );
    const granted = decisions.filter((decision) => decision.granted).length;
    expect(granted).toBeLessThanOrEqual(17);
    const bytes = Number(await connect().eval(`local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do n = n + tonumber(redis.call('GET', k)) end return n`, 0, `${prefix}b:*`));
    expect(bytes).toBeLessThanOrEqual(10_000);
    // Every refusal names the limit that refused, files or bytes, and frees in the window's time.
    for (const decision of decisions) if (!decision.granted) expect(['files', 'bytes']).toContain(decision.limit);
    // Filled: one more byte does not fit, whichever limit is reached first.
    expect((await stores[0]!.reserve(reservation(limits, { bytes: 10_000 - bytes + 1 }))).granted).toBe(false);

    const slots = await Promise.all(Array.from({ length: 200 }, (_, index) => stores[index % 5]!.reserve(reservation({ inFlight: 9 }, { subject: 'route:bob' }))));
    expect(slots.filter((decision) => decision.granted).length).toBe(9);
    const rate = await Promise.all(Array.from({ length: 200 }, (_, index) => stores[index % 5]!.reserve(reservation({ preparations: { max: 23, windowSeconds: LONG } }, { subject: 'route:carol' }))));
    expect(rate.filter((decision) => decision.granted).length).toBe(23);
  });

  it('makes one script call per operation (EVALSHA; no other command)', async () => {
    const client = connect();
    const admin = connect();
    const store = redisLimitStore(client, { prefix: freshPrefix() });
    await store.reserve(reservation({ preparations: { max: 5, windowSeconds: 60 } })); // loads the script (EVAL once)
    const calls = async () => {
      const info = await admin.info('commandstats');
      const count = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
      return { evalsha: count('evalsha'), eval: count('eval') };
    };
    const before = await calls();
    const held = reservation({ preparations: { max: 5, windowSeconds: 60 }, bytes: { max: 100, windowSeconds: 60 }, inFlight: 3 }, { bytes: 10 });
    await store.reserve(held);
    await store.settle(held.id, 8);
    await store.release(held.id);
    const after = await calls();
    // One script call each: the client sends a script's first run on a connection as EVAL (settle's and
    // release's here), later ones as EVALSHA.
    expect(after.evalsha - before.evalsha + (after.eval - before.eval)).toBe(3);
    expect(after.evalsha - before.evalsha).toBeGreaterThanOrEqual(1);
  });

  it('leaves no key without an expiry, and nothing at all once windows and reservations have ended', async () => {
    const prefix = freshPrefix();
    const client = connect();
    const store = redisLimitStore(client, { prefix });
    const limits = { preparations: { max: 10, windowSeconds: 1 }, files: { max: 10, windowSeconds: 1 }, bytes: { max: 1000, windowSeconds: 1 }, inFlight: 5 };
    const kept = reservation(limits, { bytes: 10, expiresAt: Date.now() + 1500 });
    await store.reserve(kept);
    const settled = reservation(limits, { bytes: 10, expiresAt: Date.now() + 1500 });
    await store.reserve(settled);
    await store.settle(settled.id, 5);
    const keys = await client.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    for (const key of keys) {
      const ttl = await client.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(1600);
    }
    await expect.poll(() => client.keys(`${prefix}*`), { timeout: 5000, interval: 200 }).toEqual([]);
  });

  it('runs after Redis lost its scripts (SCRIPT FLUSH, as after a restart): EVAL, then EVALSHA again', async () => {
    const client = connect();
    const store = redisLimitStore(client, { prefix: freshPrefix() });
    const limits = { files: { max: 2, windowSeconds: LONG } };
    expect(await store.reserve(reservation(limits))).toEqual({ granted: true });
    await connect().script('FLUSH');
    expect(await store.reserve(reservation(limits))).toEqual({ granted: true });
    expect(await store.reserve(reservation(limits))).toMatchObject({ granted: false, limit: 'files' });
  });

  it('keeps the newer reservation of an id reserved again while held; what the older counted stays counted', async () => {
    const store = redisLimitStore(connect(), { prefix: freshPrefix() });
    const limits = { files: { max: 5, windowSeconds: LONG }, bytes: { max: 1000, windowSeconds: LONG }, inFlight: 1 };
    expect(await store.reserve(reservation(limits, { id: 'avatars/alice', bytes: 300 }))).toEqual({ granted: true });
    // One slot in flight, held by the id itself: a new reservation of it is refused, as any other would be.
    expect(await store.reserve(reservation(limits, { id: 'avatars/alice', bytes: 400 }))).toMatchObject({ granted: false, limit: 'inFlight' });
    const roomy = { ...limits, inFlight: 2 };
    expect(await store.reserve(reservation(roomy, { id: 'avatars/alice', bytes: 400 }))).toEqual({ granted: true });
    // One reservation held (the newer): it settles once, to what it reserved.
    expect(await store.settle('avatars/alice', 350)).toEqual({ reserved: 400 });
    expect(await store.settle('avatars/alice', 350)).toBeUndefined();
    // 300 (the older, still counted) + 350 settled: 350 more fit, 351 do not.
    expect((await store.reserve(reservation(roomy, { bytes: 351 }))).granted).toBe(false);
    expect(await store.reserve(reservation(roomy, { bytes: 350 }))).toEqual({ granted: true });
  });

  it('refuses input it cannot count exactly (the call rejects, nothing is sent)', async () => {
    const store = redisLimitStore(connect(), { prefix: freshPrefix() });
    await expect(store.reserve(reservation({}, { bytes: 1.5 }))).rejects.toThrow(TypeError);
    await expect(store.reserve(reservation({ bytes: { max: 10, windowSeconds: 0 } }))).rejects.toThrow(TypeError);
    await expect(store.settle('x', -1)).rejects.toThrow(TypeError);
  });
});

describe('redisLimitStore with Redis down', () => {
  it('rejects every call (at once without the offline queue, after timeoutMs with it) and counts again once Redis is back', async () => {
    const own = await startRedis();
    try {
      const fast = new Redis(own.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
      const queued = new Redis(own.url, { retryStrategy: () => 50 });
      clients.push(fast, queued);
      // While Redis is down each reconnect fails: an app listens for 'error' (ioredis logs it otherwise).
      for (const client of [fast, queued]) client.on('error', () => {});
      const prefix = freshPrefix();
      const limits = { files: { max: 3, windowSeconds: LONG } };
      // Without the offline queue, a call before the client is connected rejects too: the app waits for 'ready'.
      await expect.poll(() => fast.status, { timeout: 5000 }).toBe('ready');
      const failFast = redisLimitStore(fast, { prefix });
      const waits = redisLimitStore(queued, { prefix, timeoutMs: 300 });
      expect(await failFast.reserve(reservation(limits))).toEqual({ granted: true });
      expect(await waits.reserve(reservation(limits))).toEqual({ granted: true });

      await own.kill();
      await expect(failFast.reserve(reservation(limits))).rejects.toThrow();
      await expect(failFast.settle('x', 1)).rejects.toThrow();
      await expect(failFast.release('x')).rejects.toThrow();
      await expect(waits.reserve(reservation(limits))).rejects.toThrow(/did not answer within 300 ms/);

      // No persistence: the restarted Redis has forgotten every count (and every script).
      await own.restart();
      await expect.poll(() => fast.status, { timeout: 5000 }).toBe('ready');
      await expect.poll(() => queued.status, { timeout: 5000 }).toBe('ready');
      const after = await Promise.all(Array.from({ length: 6 }, () => failFast.reserve(reservation(limits))));
      // The queued client's reservation from while Redis was down may have run on reconnect: 3 or 2 granted here.
      expect(after.filter((decision) => decision.granted).length).toBeGreaterThanOrEqual(2);
      expect(after.filter((decision) => decision.granted).length).toBeLessThanOrEqual(3);
    } finally {
      await own.stop();
    }
  });
});
