import type { Redis } from 'ioredis';
import type { LimitDecision, LimitName, LimitReservation, LimitStore, WindowLimit } from '../limit-store';
import { RELEASE_SCRIPT, RESERVE_SCRIPT, SETTLE_SCRIPT } from './limit-scripts';

/** Options of {@link redisLimitStore}. */
export interface RedisLimitStoreOptions {
  /**
   * Prefix of every key the store writes (the client's own `keyPrefix` is not applied to them). Give each
   * app its own when apps share a Redis.
   * @default 'upbeam:limits:'
   */
  prefix?: string;
  /**
   * Longest wait for Redis's answer to one call, in milliseconds: past it the call rejects (the handler then
   * fails closed or open, `limitStoreFailure`). A command queued by the client while Redis is unreachable may
   * still run once Redis is back: a reservation it makes expires at its `expiresAt`.
   * @default 2000
   */
  timeoutMs?: number;
}

const DEFAULT_PREFIX = 'upbeam:limits:';

// Names of the scripts on the client (ioredis `defineCommand`): EVALSHA, with EVAL when Redis has not seen the
// script yet (NOSCRIPT: after a restart, or on a new Redis).
const RESERVE = 'upbeamLimitsReserve';
const SETTLE = 'upbeamLimitsSettle';
const RELEASE = 'upbeamLimitsRelease';

type Script = (...args: string[]) => Promise<unknown>;
type ScriptedClient = Record<typeof RESERVE | typeof SETTLE | typeof RELEASE, Script>;

/**
 * A `LimitStore` (of `@upbeam/upload-server`) in Redis, for a handler that runs in many processes (or on many machines): every
 * process given a store over the same Redis counts against the same limits. Each call is one Lua script (one
 * round trip, EVALSHA), atomic across processes; windows are fixed, aligned to the epoch on Redis's own clock
 * (`TIME`), so that processes with skewed clocks agree; every key expires on its own (keys under
 * {@link RedisLimitStoreOptions.prefix}). Expired reservations are given back (bytes and file, to the window
 * that counted them if it has not ended) by the subject's next `reserve`.
 *
 * The client is the app's (`ioredis`, an optional peer dependency of this package: install it): the store
 * neither connects nor closes it. It must reach one Redis (standalone, or a primary behind Sentinel), not Redis
 * Cluster: the scripts compute their keys.
 *
 * When Redis is down, slow (past `timeoutMs`) or answers an error, the call rejects: the handler then answers
 * 503 `LIMITS_UNAVAILABLE` and prepares nothing (`limitStoreFailure: 'fail-closed'`, the default), or grants the
 * upload uncounted and tells `onError` (`'fail-open'`). Create the client with `enableOfflineQueue: false` for
 * calls to reject at once while it is disconnected, rather than wait for `timeoutMs` (then wait for its `ready`
 * event before serving: calls before the first connection reject too), and listen for its `error` events.
 *
 * @param client - an ioredis client (`new Redis(url)`), shared with the app or its own.
 * @throws TypeError (the call rejects) when `bytes`, `expiresAt`, `size` or a limit's `max` is not a
 *   non-negative integer, or a `windowSeconds` is not a positive number.
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createUploadHandler } from '@upbeam/upload-server';
 * import { redisLimitStore } from '@upbeam/upload-server/redis';
 *
 * const redis = new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false });
 * export const handler = createUploadHandler({
 *   limits: { preparations: { max: 60, windowSeconds: 60 }, bytes: { max: 5 * 1024 ** 3, windowSeconds: 86_400 } },
 *   limitStore: redisLimitStore(redis),
 * });
 * ```
 */
export function redisLimitStore(client: Redis, options: RedisLimitStoreOptions = {}): LimitStore {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const timeoutMs = options.timeoutMs ?? 2000;
  client.defineCommand(RESERVE, { numberOfKeys: 0, lua: RESERVE_SCRIPT });
  client.defineCommand(SETTLE, { numberOfKeys: 0, lua: SETTLE_SCRIPT });
  client.defineCommand(RELEASE, { numberOfKeys: 0, lua: RELEASE_SCRIPT });
  const scripts = client as unknown as ScriptedClient;

  const run = (name: keyof ScriptedClient, args: string[]): Promise<unknown> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([scripts[name](...args), late]).finally(() => clearTimeout(timer));
  };

  return {
    async reserve(reservation: LimitReservation): Promise<LimitDecision> {
      const { subject, id, bytes, expiresAt, limits } = reservation;
      const args = [prefix, subject, id, integer('bytes', bytes), integer('expiresAt', expiresAt),
        ...windowArgs('preparations', limits.preparations), ...windowArgs('bytes', limits.bytes),
        ...windowArgs('files', limits.files), limits.inFlight === undefined ? '' : integer('inFlight', limits.inFlight)];
      const answer = (await run(RESERVE, args)) as [number, LimitName?, number?];
      return answer[0] === 1 ? { granted: true } : { granted: false, limit: answer[1]!, retryAfter: Number(answer[2]) };
    },
    async settle(id: string, size: number) {
      const reserved = (await run(SETTLE, [prefix, id, integer('size', size)])) as string | null;
      return reserved === null ? undefined : { reserved: Number(reserved) };
    },
    async release(id: string) {
      await run(RELEASE, [prefix, id]);
    },
  };
}

/** A count or size for Redis: a non-negative integer, written out in full (never `1e+21`). */
function integer(name: string, value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer, got ${value}`);
  return String(value);
}

function windowArgs(name: string, limit: WindowLimit | undefined): [string, string] {
  if (!limit) return ['', ''];
  if (!(limit.windowSeconds > 0) || !Number.isFinite(limit.windowSeconds)) {
    throw new TypeError(`${name}.windowSeconds must be a positive number of seconds, got ${limit.windowSeconds}`);
  }
  return [integer(`${name}.max`, limit.max), String(limit.windowSeconds)];
}
