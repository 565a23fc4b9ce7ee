/**
 * Quotas and rate limits around a route's uploads: a new upload is reserved once it is decided (authorized, key
 * chosen) and before anything is signed; its completion settles it to the stored size; an abort, or a
 * preparation that fails after the reservation, releases it. The counting is the store's (`limit-store.ts`);
 * here: which limits and store a route has, whose counters (scope and subject), and the refusals in words.
 */
import { UploadError } from './errors';
import type { LimitDecision, LimitName, LimitStore, UploadLimits, WindowLimit } from './limit-store';
import { memoryLimitStore } from './memory-limit-store';
import { countReservedBytes } from './telemetry';

/** One new upload to reserve. */
export interface UploadToReserve {
  /** Its object key: the reservation's id, which its completion or abort names. */
  key: string;
  /** The declared size, in bytes (`filesize`); required by a `bytes` limit. */
  filesize: number | undefined;
  /** When its receipt or ticket ends, in milliseconds since the epoch: the reservation ends then. */
  expiresAt: number;
  /** Whose limits count it: what `onBeforeUpload` returned as `subject`, else the client's address; undefined: neither. */
  subject: string | undefined;
}

/** The limits of one route on the app's store (none for a route without `limits`). */
export interface RouteLimits {
  /** The limits counted: the route's own, else the handler's. */
  limits: UploadLimits;
  /** Whether a `bytes` limit is counted: `filesize` is then required and signed as the PUT's Content-Length. */
  countsBytes: boolean;
  /**
   * Reserves one new upload: returns once it is granted (or the store failed and the route fails open).
   * @throws {@link UploadError} `RATE_LIMITED` / `QUOTA_EXCEEDED` (429, with `limit` and `retryAfter`),
   *   `LIMITS_UNAVAILABLE` (503: the store failed, fail-closed), `INVALID_REQUEST` (400: no `filesize` with a
   *   `bytes` limit), `INVALID_SETTINGS` (500: no subject: no `subject` from `onBeforeUpload` and no address).
   */
  reserve(upload: UploadToReserve): Promise<void>;
  /**
   * The upload of `key` is stored with `size` bytes. A store's failure goes to `onError` (the reservation then
   * ends at its `expiresAt`, giving its bytes back: they are not counted).
   * @returns the bytes that were reserved; undefined when none was held (or the store failed).
   */
  settle(key: string, size: number): Promise<{ reserved: number } | undefined>;
  /** The upload of `key` ended without an object: its bytes and file are given back. A store's failure goes to `onError`. */
  release(key: string): Promise<void>;
}

/**
 * What the limits read of a handler's configuration (`HandlerConfig` of `config.ts`, which is not imported:
 * it imports the routes, whose completion imports this module).
 */
interface LimitsConfig {
  limits?: UploadLimits | undefined;
  limitStore?: LimitStore | undefined;
  limitStoreFailure?: 'fail-closed' | 'fail-open' | undefined;
  routes?: Record<string, { limits?: UploadLimits | undefined }> | undefined;
}

/** The stores of configurations that name none: one per configuration object (handler, reconcile, events share it). */
const defaultStores = new WeakMap<object, LimitStore>();

/** The store of `config`: its `limitStore`, else the one memory store of this configuration object. */
function storeOf(config: LimitsConfig): LimitStore {
  if (config.limitStore) return config.limitStore;
  let store = defaultStores.get(config);
  if (store === undefined) defaultStores.set(config, (store = memoryLimitStore()));
  return store;
}

/**
 * Checks a route's limits once, when the handler is created.
 * @throws {@link UploadError} `INVALID_SETTINGS` for a `max` that is not a whole number of at least 0, or a
 *   `windowSeconds` that is not a whole number of at least 1.
 */
function assertValidLimits(limits: UploadLimits, where: string): void {
  const check = (field: string, value: number, least: number, rule: string) => {
    if (Number.isSafeInteger(value) && value >= least) return;
    throw new UploadError('INVALID_SETTINGS', `${where}: \`limits.${field}\` must be ${rule}, not ${String(value)}.`);
  };
  for (const name of ['preparations', 'bytes', 'files'] as const) {
    const limit = limits[name];
    if (limit === undefined) continue;
    check(`${name}.max`, limit.max, 0, 'a whole number of at least 0');
    check(`${name}.windowSeconds`, limit.windowSeconds, 1, 'a whole number of seconds, at least 1');
  }
  if (limits.inFlight !== undefined) check('inFlight', limits.inFlight, 0, 'a whole number of at least 0');
}

/**
 * The limits of the route `route` (undefined: a handler without routes) with `settings` (its own over the
 * shared ones) in the app of `config`; undefined when it has none. The counters are the route's own when the
 * route sets `limits` (scope: its name), else shared by every route that inherits the handler's (scope `*`).
 * @throws {@link UploadError} `INVALID_SETTINGS` for invalid `limits` or `limitStoreFailure`.
 */
export function createRouteLimits(
  config: LimitsConfig,
  route: string | undefined,
  settings: Pick<LimitsConfig, 'limits'>,
  onError: (error: unknown) => void,
): RouteLimits | undefined {
  const { limits } = settings;
  if (limits === undefined) return undefined;
  assertValidLimits(limits, route === undefined ? 'The handler' : `Route "${route}"`);
  const failure = config.limitStoreFailure ?? 'fail-closed';
  if (failure !== 'fail-closed' && failure !== 'fail-open') {
    throw new UploadError('INVALID_SETTINGS', `\`limitStoreFailure\` must be 'fail-closed' or 'fail-open', not ${JSON.stringify(failure)}.`);
  }
  const ownLimits = route !== undefined && config.routes?.[route]?.limits !== undefined;
  const scope = ownLimits ? route : '*';
  const store = storeOf(config);
  return {
    limits,
    countsBytes: limits.bytes !== undefined,
    async reserve({ key, filesize, expiresAt, subject }) {
      if (limits.bytes !== undefined && filesize === undefined) {
        throw new UploadError('INVALID_REQUEST', '"filesize" (bytes) is required: this upload route limits the bytes uploaded.');
      }
      if (subject === undefined || subject === '') {
        throw new UploadError('INVALID_SETTINGS', 'limits need a subject: return `subject` from onBeforeUpload, or serve through toNodeHandler');
      }
      const reservation = { subject: `${scope}:${subject}`, id: key, bytes: filesize ?? 0, expiresAt, limits };
      let decision: LimitDecision;
      try {
        decision = await store.reserve(reservation);
      } catch (error) {
        onError(error);
        if (failure === 'fail-open') return;
        throw new UploadError('LIMITS_UNAVAILABLE', 'Upload limits cannot be checked right now. Try again later.', { cause: error });
      }
      if (!decision.granted) throw refusal(decision.limit, decision.retryAfter, limits);
      countReservedBytes(route, reservation.bytes);
    },
    async settle(key, size) {
      try {
        return await store.settle(key, size);
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    async release(key) {
      try {
        await store.release(key);
      } catch (error) {
        onError(error);
      }
    },
  };
}

/**
 * Reserves `upload` on `limits` (none: nothing to do), then runs `prepare`; a preparation that fails after
 * the reservation releases it.
 */
export async function reserving<T>(limits: RouteLimits | undefined, upload: UploadToReserve, prepare: () => Promise<T>): Promise<T> {
  if (limits === undefined) return prepare();
  await limits.reserve(upload);
  try {
    return await prepare();
  } catch (error) {
    await limits.release(upload.key);
    throw error;
  }
}

/** The subject `onBeforeUpload` returned, checked. @throws TypeError for one that is not a non-empty string (500, logged). */
export function subjectOf(returned: unknown): string | undefined {
  if (returned === null || typeof returned !== 'object' || !('subject' in returned)) return undefined;
  const { subject } = returned;
  if (subject === undefined) return undefined;
  if (typeof subject !== 'string' || subject === '') throw new TypeError('onBeforeUpload returned a `subject` that is not a non-empty string.');
  return subject;
}

/** The refusal of `limit`, in words, with its `Retry-After`. */
export function refusal(limit: LimitName, retryAfter: number, limits: UploadLimits): UploadError {
  const options = { limit, retryAfter };
  const again = `Try again in ${durationWords(retryAfter)}.`;
  switch (limit) {
    case 'preparations': {
      const { max, windowSeconds } = limits.preparations!;
      return new UploadError('RATE_LIMITED', `Too many uploads started: at most ${count(max)} ${perWindow(windowSeconds)}. ${again}`, options);
    }
    case 'inFlight':
      return new UploadError('QUOTA_EXCEEDED', `Too many uploads at once: at most ${count(limits.inFlight!)} in flight. Try again when one ends.`, options);
    case 'files': {
      const { max, windowSeconds } = limits.files!;
      return new UploadError('QUOTA_EXCEEDED', `Upload quota reached: at most ${count(max)} ${max === 1 ? 'file' : 'files'} ${perWindow(windowSeconds)}. ${again}`, options);
    }
    case 'bytes': {
      const { max, windowSeconds } = limits.bytes!;
      return new UploadError('QUOTA_EXCEEDED', `Upload quota reached: at most ${bytesWords(max)} ${perWindow(windowSeconds)}. ${again}`, options);
    }
  }
}

/** A whole number with thousands separators: `1,000`. */
function count(value: number): string {
  return value.toLocaleString('en-US');
}

const UNITS: ReadonlyArray<readonly [seconds: number, name: string]> = [
  [86_400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];

/** A window in words: `per minute`, `per day`, `per 5 minutes`, `per 90 seconds`. */
export function perWindow(windowSeconds: WindowLimit['windowSeconds']): string {
  if (windowSeconds === 1) return 'per second';
  for (const [seconds, name] of UNITS) {
    if (windowSeconds % seconds !== 0) continue;
    const amount = windowSeconds / seconds;
    return amount === 1 ? `per ${name}` : `per ${count(amount)} ${name}s`;
  }
  return `per ${count(windowSeconds)} seconds`;
}

/** A wait in words, about: `42 seconds`, `5 minutes` (rounded up), `3 hours`, `2 days` (rounded). */
export function durationWords(seconds: number): string {
  const plural = (amount: number, name: string) => `${count(amount)} ${name}${amount === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), 'minute');
  if (seconds < 86_400) return plural(Math.max(1, Math.round(seconds / 3600)), 'hour');
  return plural(Math.round(seconds / 86_400), 'day');
}

const BYTE_UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** Bytes in words, in binary units with at most one decimal: `5 GiB`, `1.5 MiB`, `900 bytes`. */
export function bytesWords(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${count(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const rounded = Math.round(value * 10) / 10;
  return `${rounded.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${BYTE_UNITS[unit]}`;
}
