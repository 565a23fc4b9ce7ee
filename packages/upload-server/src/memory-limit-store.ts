import type { LimitDecision, LimitName, LimitReservation, LimitStore, UploadLimits, WindowLimit } from './limit-store';

/** Options of {@link memoryLimitStore}. */
export interface MemoryLimitStoreOptions {
  /** The clock the store counts by, in milliseconds since the epoch (tests move it). @default Date.now */
  now?: () => number;
}

/** A count in one fixed window (its key names the limit, the window's length and index, and the subject). */
interface WindowCount {
  value: number;
  /** When the window ends, in milliseconds since the epoch. */
  endsAt: number;
}

/** A reservation held: where its file and bytes were counted, and until when it holds its in-flight slot. */
interface Held {
  subject: string;
  bytes: number;
  expiresAt: number;
  /** The count its file was added to (none without a `files` limit). */
  files: string | undefined;
  /** The count its bytes were added to (none without a `bytes` limit). */
  bytesCount: string | undefined;
}

/** Operations between two sweeps of every ended window and expired reservation (memory stays bounded). */
const SWEEP_EVERY = 1024;

const MS = 1000;

/** Seconds from `now` until `until`, rounded up, at least 1 (a refusal's `retryAfter`). */
function secondsUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / MS));
}

/** The window of `limit` that holds `now`: fixed windows aligned to the epoch. */
function windowOf(limit: WindowLimit, now: number): { index: number; endsAt: number } {
  const length = limit.windowSeconds * MS;
  const index = Math.floor(now / length);
  return { index, endsAt: (index + 1) * length };
}

/**
 * The limit store of one process: counts in this process's memory, lost when it ends, not shared with another
 * process (for several handler processes, use the Redis store of `@upbeam/upload-server/redis`). The handler's
 * default when the config gives no `limitStore`: one per handler configuration.
 *
 * Fixed windows aligned to the epoch (a day's window starts at 00:00 UTC). Each call runs to its end without
 * awaiting, so it is atomic within the process. A reservation holds its in-flight slot until it is settled,
 * released or reaches its `expiresAt`; an expired one gives its bytes and its file back (to its window, if that
 * has not ended) when the subject next reserves, or on a settle or release of it. Memory: one entry per subject
 * and limit in the current window, and one per reservation held; ended windows and expired reservations are
 * swept every 1024 calls.
 *
 * @example
 * import { createUploadHandler, memoryLimitStore } from '@upbeam/upload-server';
 *
 * export const POST = createUploadHandler({
 *   limits: { preparations: { max: 60, windowSeconds: 60 }, inFlight: 3 },
 *   limitStore: memoryLimitStore(), // the default; one process only
 * });
 */
export function memoryLimitStore(options: MemoryLimitStoreOptions = {}): LimitStore {
  const now = options.now ?? Date.now;
  const counts = new Map<string, WindowCount>();
  const held = new Map<string, Held>();
  const bySubject = new Map<string, Set<string>>();
  let calls = 0;

  const countKey = (subject: string, name: LimitName, limit: WindowLimit, index: number) => `${name}\n${limit.windowSeconds}\n${index}\n${subject}`;

  /** The live count of `key` (0 once its window has ended). */
  const valueOf = (key: string, at: number) => {
    const count = counts.get(key);
    return count === undefined || count.endsAt <= at ? 0 : count.value;
  };

  const add = (key: string, endsAt: number, amount: number) => {
    // A key names one window (its index): an entry found is of the window that holds `at`.
    const count = counts.get(key);
    if (count === undefined) counts.set(key, { value: amount, endsAt });
    else count.value += amount;
  };

  /** Takes `amount` back from a count, if its window has not ended. */
  const giveBack = (key: string | undefined, amount: number, at: number) => {
    if (key === undefined) return;
    const count = counts.get(key);
    if (count === undefined || count.endsAt <= at) return;
    count.value = Math.max(0, count.value - amount);
  };

  const forget = (id: string, reservation: Held) => {
    held.delete(id);
    const ids = bySubject.get(reservation.subject);
    ids?.delete(id);
    if (ids?.size === 0) bySubject.delete(reservation.subject);
  };

  /** Ends an expired reservation: its file and bytes are given back, its slot freed. */
  const expire = (id: string, reservation: Held, at: number) => {
    giveBack(reservation.files, 1, at);
    giveBack(reservation.bytesCount, reservation.bytes, at);
    forget(id, reservation);
  };

  /** The reservation `id` while it is held; an expired one is ended here. */
  const holding = (id: string, at: number): Held | undefined => {
    const reservation = held.get(id);
    if (reservation === undefined) return undefined;
    if (reservation.expiresAt > at) return reservation;
    expire(id, reservation, at);
    return undefined;
  };

  const sweep = (at: number) => {
    calls += 1;
    if (calls % SWEEP_EVERY !== 0) return;
    for (const [id, reservation] of held) if (reservation.expiresAt <= at) expire(id, reservation, at);
    for (const [key, count] of counts) if (count.endsAt <= at) counts.delete(key);
  };

  /** How many reservations the subject holds at `at` (expired ones are ended first), and the first to expire. */
  const inFlight = (subject: string, at: number): { count: number; firstExpiry: number } => {
    let count = 0;
    let firstExpiry = Infinity;
    for (const id of [...(bySubject.get(subject) ?? [])]) {
      const reservation = holding(id, at);
      if (reservation === undefined) continue;
      count += 1;
      firstExpiry = Math.min(firstExpiry, reservation.expiresAt);
    }
    return { count, firstExpiry };
  };

  /** The first limit of `limits` the reservation breaks, in the order preparations, inFlight, files, bytes. */
  const refusal = (request: LimitReservation, at: number): LimitDecision | undefined => {
    const { subject, limits } = request;
    const windowRefusal = (name: 'preparations' | 'files' | 'bytes', amount: number) => {
      const limit = limits[name];
      if (limit === undefined) return undefined;
      const { index, endsAt } = windowOf(limit, at);
      if (valueOf(countKey(subject, name, limit, index), at) + amount <= limit.max) return undefined;
      return { granted: false as const, limit: name, retryAfter: secondsUntil(endsAt, at) };
    };
    const byPreparations = windowRefusal('preparations', 1);
    if (byPreparations) return byPreparations;
    if (limits.inFlight !== undefined) {
      const { count, firstExpiry } = inFlight(subject, at);
      if (count + 1 > limits.inFlight) return { granted: false, limit: 'inFlight', retryAfter: secondsUntil(firstExpiry, at) };
    }
    return windowRefusal('files', 1) ?? windowRefusal('bytes', request.bytes);
  };

  /** Counts `amount` in the current window of `name`; the count's key, none without that limit. */
  const count = (subject: string, limits: UploadLimits, name: 'preparations' | 'files' | 'bytes', amount: number, at: number) => {
    const limit = limits[name];
    if (limit === undefined) return undefined;
    const { index, endsAt } = windowOf(limit, at);
    const key = countKey(subject, name, limit, index);
    add(key, endsAt, amount);
    return key;
  };

  return {
    async reserve(request) {
      const at = now();
      sweep(at);
      const refused = refusal(request, at);
      if (refused) return refused;
      const { subject, limits, id } = request;
      count(subject, limits, 'preparations', 1, at);
      const reservation: Held = {
        subject,
        bytes: request.bytes,
        expiresAt: request.expiresAt,
        files: count(subject, limits, 'files', 1, at),
        bytesCount: count(subject, limits, 'bytes', request.bytes, at),
      };
      // The same id again (a key reused while its upload is in flight): the newer reservation is the one held.
      const previous = held.get(id);
      if (previous) forget(id, previous);
      held.set(id, reservation);
      let ids = bySubject.get(subject);
      if (ids === undefined) bySubject.set(subject, (ids = new Set()));
      ids.add(id);
      return { granted: true };
    },

    async settle(id, size) {
      const at = now();
      sweep(at);
      const reservation = holding(id, at);
      if (reservation === undefined) return undefined;
      if (reservation.bytesCount !== undefined) {
        const reserved = counts.get(reservation.bytesCount);
        if (reserved !== undefined && reserved.endsAt > at) reserved.value = Math.max(0, reserved.value + size - reservation.bytes);
      }
      forget(id, reservation);
      return { reserved: reservation.bytes };
    },

    async release(id) {
      const at = now();
      sweep(at);
      const reservation = holding(id, at);
      if (reservation === undefined) return;
      giveBack(reservation.files, 1, at);
      giveBack(reservation.bytesCount, reservation.bytes, at);
      forget(id, reservation);
    },
  };
}
