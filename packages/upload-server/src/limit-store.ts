/**
 * Quotas and rate limits: the limits a handler or route declares, and the store that counts them (one
 * process: `memoryLimitStore`; many: the Redis store of `@upbeam/upload-server/redis`, or an app's own, e.g.
 * on an HTTP Redis such as Upstash at the edge). Types only: the handler (`upload-limits.ts`) and every store
 * import them from here.
 */

/** At most `max` in each window of `windowSeconds` (fixed windows, aligned to the epoch). */
export interface WindowLimit {
  /** Most allowed in one window (a count, or bytes for `bytes`). */
  max: number;
  /** Length of a window, in seconds, e.g. `60` (a minute) or `86400` (a day). */
  windowSeconds: number;
}

/**
 * The limits of one subject (the user, org or IP that `onBeforeUpload` names, `subject`) on a route or on
 * the whole handler. Every field is optional; a preparation is granted only when it fits all of them.
 */
export interface UploadLimits {
  /** Preparations per window (a rate limit, e.g. `{ max: 60, windowSeconds: 60 }`); refused `RATE_LIMITED`. */
  preparations?: WindowLimit;
  /** Bytes per window (declared sizes reserved, settled to stored sizes), e.g. 5 GiB a day; refused `QUOTA_EXCEEDED`. */
  bytes?: WindowLimit;
  /** Files per window; refused `QUOTA_EXCEEDED`. */
  files?: WindowLimit;
  /** Uploads in flight at once (prepared, neither completed nor aborted nor expired); refused `QUOTA_EXCEEDED`. */
  inFlight?: number;
}

/** The name of one limit of {@link UploadLimits}: what a refusal says was reached. */
export type LimitName = keyof UploadLimits;

/** What the handler asks a {@link LimitStore} to reserve for one preparation. */
export interface LimitReservation {
  /** Whose counters: the handler's scope and subject, e.g. `avatar:user-42` (opaque to the store). */
  subject: string;
  /** The upload's id, unique per upload (the handler uses its object key): what `settle` and `release` name. */
  id: string;
  /** Bytes to reserve: the declared size. */
  bytes: number;
  /**
   * When the reservation ends if no completion settles it and no abort releases it, in milliseconds since the
   * epoch: its bytes and its file are then given back and it leaves the in-flight count.
   */
  expiresAt: number;
  /** The limits to check, all at once: nothing is counted unless every one of them allows it. */
  limits: UploadLimits;
}

/** A store's answer to a reservation. */
export type LimitDecision =
  | { granted: true }
  | {
      granted: false;
      /** The limit that refused (the first one in the order preparations, inFlight, files, bytes). */
      limit: LimitName;
      /** Seconds until it frees (its window ends, or the first in-flight reservation expires), at least 1. */
      retryAfter: number;
    };

/**
 * Counts reservations against limits. Each call is atomic, also across processes sharing the store, and
 * makes at most one round trip to a remote store. A store that cannot answer (down, timed out) rejects: the
 * handler then fails closed (503 `LIMITS_UNAVAILABLE`) or open (`limitStoreFailure`).
 */
export interface LimitStore {
  /**
   * Checks every limit and, when all allow it, counts one preparation, one file and `bytes`, and holds one
   * in-flight slot. An id reserved again while held (a fixed object key prepared anew during its upload): the
   * newer reservation is the one held, and what the older one counted stays counted.
   */
  reserve(reservation: LimitReservation): Promise<LimitDecision>;
  /**
   * The upload is stored with `size` bytes (HEAD): its reserved bytes become `size` (in the window that
   * reserved them) and it leaves the in-flight count. Idempotent: a second call, or one after `release` or
   * expiry, changes nothing.
   * @returns the bytes that were reserved, undefined when no reservation was held.
   */
  settle(id: string, size: number): Promise<{ reserved: number } | undefined>;
  /** The upload ended without an object (aborted, failed): its bytes and its file are given back. Idempotent. */
  release(id: string): Promise<void>;
}
