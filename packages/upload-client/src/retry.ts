/**
 * The retry policy of every request the engine sends (endpoint POSTs, PUTs of the file and of each part,
 * the temporary-token strategy's storage requests): how many attempts, which failures deserve another
 * one, and how long to wait before it (exponential backoff with full jitter, or the server's Retry-After).
 */
import { createAbortError, onAbort } from './abort';
import { isUploadClientError, UploadClientError } from './errors';

/** Attempts per request, the first one included (SPEC 9: default retry 3 attempts). */
export const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * Backoff base, in milliseconds. Retry `n` (1 for the first) waits a random time in
 * `[0, RETRY_BASE_DELAY_MS × 2^(n-1))` ("full jitter"): clients that failed together do not retry together.
 */
export const RETRY_BASE_DELAY_MS = 500;

/**
 * Longest wait before a retry, in milliseconds (20 s, the AWS SDK's cap too). A longer `Retry-After` is cut
 * to it: an upload in a browser tab should not sit silent for minutes.
 */
export const MAX_RETRY_DELAY_MS = 20_000;

/**
 * HTTP statuses that another attempt may cure: 408 Request Timeout, 429 Too Many Requests, and the
 * transient server failures 500, 502, 503, 504. Other 4xx (403, 404, 400...) cannot succeed as they are;
 * 501 and 505 never will.
 */
export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

/**
 * S3 error codes that another attempt may cure, whatever their status: `SlowDown` (503, throttling),
 * `RequestTimeout` (400, the connection idled), `InternalError` (500, or inside a 200 CompleteMultipartUpload
 * answer). `ServiceUnavailable` always comes with 503, which is retried for its status. A refused checksum
 * (`BadDigest`, ...) is hashed again before it is sent again, once (`recovery.ts`).
 */
export const RETRYABLE_S3_CODES: readonly string[] = ['SlowDown', 'RequestTimeout', 'InternalError'];

/** What an `onRetry` listener receives before each retry. */
export interface RetryEvent {
  /** Number of the attempt about to start: 2 for the first retry, up to `maxAttempts`. */
  attempt: number;
  /** Wait before it, in milliseconds (0 when a fresh presigned URL replaces an expired one). */
  delayMs: number;
  /**
   * Why the previous attempt failed: an `UploadClientError` with the answer's `status`, `answerCode` and
   * `retryAfter` when there was one.
   */
  error: unknown;
}

/** Called before each retry of any request of an upload. */
export type RetryListener = (event: RetryEvent) => void;

/** Retry options of an upload. */
export interface RetryOptions {
  /**
   * Attempts per request (endpoint POST, PUT, each part), the first included; an integer of at least 1
   * (1 = never retry). A failure is retried on a network error, 408, 429, 500, 502, 503, 504, S3
   * `SlowDown`, or a part answer without a readable ETag; an expired presigned URL is signed again; a body
   * whose checksum storage refused (`BadDigest`, ...) is hashed and sent again once. Other
   * answers are not retried. A preparation refused by the route's limits: `RATE_LIMITED`, or `QUOTA_EXCEEDED`
   * of the uploads in flight, is asked again after its `Retry-After` when that is at most 60 s, and fails at once
   * when longer; `QUOTA_EXCEEDED` of bytes or files per window fails at once; `LIMITS_UNAVAILABLE` (503) is
   * retried with the backoff.
   * @default 3
   */
  maxAttempts?: number;
  /** Called before each retry with `{ attempt, delayMs, error }`, e.g. to log or count them. */
  onRetry?: RetryListener;
}

/** Retry options after defaults and checks, with the signal that cancels the upload. */
export interface RetrySettings extends RetryOptions {
  maxAttempts: number;
  signal?: AbortSignal | undefined;
}

/**
 * Applies the default (3 attempts) and checks `maxAttempts`.
 * @returns a copy of `options` with `maxAttempts` set.
 * @throws {@link UploadClientError} `INVALID_OPTIONS` when `maxAttempts` is not an integer of at least 1.
 */
export function resolveRetrySettings<T extends RetryOptions & { signal?: AbortSignal | undefined }>(
  options: T,
): T & RetrySettings {
  const { maxAttempts = DEFAULT_MAX_ATTEMPTS } = options;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new UploadClientError('INVALID_OPTIONS', `maxAttempts must be an integer of at least 1. Got ${maxAttempts}.`);
  }
  return { ...options, maxAttempts };
}

/**
 * Wait before retry `retry` (1 for the first), in milliseconds: full jitter, a random time in
 * `[0, min(20000, 500 × 2^(retry-1)))`.
 */
export function backoffDelay(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Reads a `Retry-After` header (RFC 9110): a number of seconds, or an HTTP date.
 * @returns the wait in milliseconds (0 for a date in the past), capped at 20000; `undefined` when the value
 *   is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const ms = retryAfterMs(value, now);
  return ms === undefined ? undefined : Math.min(MAX_RETRY_DELAY_MS, ms);
}

/**
 * Reads a `Retry-After` header as {@link parseRetryAfter} does, uncapped (a quota's refusal may say hours).
 * @returns the wait in milliseconds (0 for a date in the past); `undefined` when absent or unreadable.
 */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim() ?? '';
  // An HTTP-date as servers must send it (IMF-fixdate, RFC 9110) ends in GMT; other text is not a date.
  // Digits and dots only: seconds (`Number` refuses `1.2.3`); `-5`, `3s`, `0x10` and the like are not.
  const ms = /^[\d.]+$/.test(text) ? Number(text) * 1000 : /GMT$/.test(text) ? Date.parse(text) - now : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.max(0, Math.ceil(ms));
}

/** Whether an answer with this status and S3 error code may succeed on another attempt. */
export function isRetryableAnswer(status: number, s3Code?: string): boolean {
  return RETRYABLE_STATUSES.includes(status) || RETRYABLE_S3_CODES.includes(s3Code as string);
}

/**
 * Whether another attempt may cure `error`, one of the engine's own errors: no answer (`NETWORK_ERROR`), a
 * retryable answer ({@link isRetryableAnswer}), or a part answer without a readable ETag (`MISSING_ETAG`: a
 * proxy can lose a header once, while a bucket whose CORS rule does not expose it fails every attempt and
 * ends with the hint). A cancel, a refusal that cannot succeed, a bad option or an unreadable preparation
 * answer is not.
 */
export function isRetryable(error: unknown): boolean {
  return (
    isUploadClientError(error) &&
    (error.code === 'NETWORK_ERROR' || error.code === 'MISSING_ETAG' || isRetryableAnswer(error.status ?? 0, error.answerCode))
  );
}

/**
 * How long to wait before retrying after `error`, in milliseconds: the server's `Retry-After` (capped) or
 * the backoff; `undefined` when it must not be retried ({@link isRetryable}).
 */
export function retryDelay(error: unknown, retry: number): number | undefined {
  if (!isRetryable(error)) return undefined;
  return parseRetryAfter((error as UploadClientError).retryAfter) ?? backoffDelay(retry);
}

/**
 * Resolves after `ms` milliseconds; rejects at once with the `AbortError` `Upload aborted.` when `signal`
 * aborts (before or during the wait).
 */
export function waitForRetry(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    const stop = onAbort(signal, () => {
      clearTimeout(timer);
      reject(createAbortError());
    });
  });
}
