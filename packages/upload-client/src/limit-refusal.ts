/**
 * A preparation the endpoint refused by a quota or rate limit of the route (`429` `RATE_LIMITED` or
 * `QUOTA_EXCEEDED`, with `Retry-After`): whether waiting can cure it, and how long. The recovery classifier
 * (`recovery.ts`) and the tracker's queue read it; `LIMITS_UNAVAILABLE` (503: the server cannot count) is
 * not one of them: it is retried with the backoff like any 503.
 */
import { isUploadClientError } from './errors';
import { retryAfterMs } from './retry';

/**
 * Longest wait for a limit to free before the preparation is asked again, in milliseconds (60 s). A refusal
 * whose `Retry-After` is longer (a daily quota, an hourly rate) fails at once with the server's message (`Try
 * again in 3 hours`): a browser tab should not sit silent for hours, nor ask every minute.
 */
export const MAX_LIMIT_WAIT_MS = 60_000;

/** What a refusal by a limit asks of the client. */
export type LimitRefusal =
  /**
   * Ask again after the limit frees: a rate limit (`RATE_LIMITED`) or the uploads in flight (`QUOTA_EXCEEDED`,
   * `limit: 'inFlight'`) that free within {@link MAX_LIMIT_WAIT_MS}. `waitMs`: the `Retry-After`, `undefined`
   * when the page could not read one (then the backoff).
   */
  | { waitMs: number | undefined }
  /**
   * Asking again cannot help soon: a quota of bytes or files per window, or a wait past
   * {@link MAX_LIMIT_WAIT_MS}.
   */
  | 'give-up';

/**
 * What a refusal by a quota or rate limit asks of the client; `undefined` for any other error.
 * @param error - Any thrown value; only an `UploadClientError` `PREPARE_FAILED` with `answerCode`
 *   `RATE_LIMITED` or `QUOTA_EXCEEDED` is a refusal by a limit.
 */
export function limitRefusal(error: unknown): LimitRefusal | undefined {
  if (!isUploadClientError(error) || error.code !== 'PREPARE_FAILED') return undefined;
  const { answerCode } = error;
  const quota = answerCode === 'QUOTA_EXCEEDED';
  // Bytes and files per window free when the window ends: hours for the quotas apps set.
  if (answerCode !== 'RATE_LIMITED' && !(quota && error.limit === 'inFlight')) return quota ? 'give-up' : undefined;
  const waitMs = retryAfterMs(error.retryAfter);
  return waitMs! > MAX_LIMIT_WAIT_MS ? 'give-up' : { waitMs };
}

/**
 * Whether `error`, once final, would refuse every other file of the same route now too, so that a tracker
 * fails its queued files of that route with it without asking: a rate limit, or the files of the window,
 * that free past {@link MAX_LIMIT_WAIT_MS}. A quota of bytes may still take a smaller file, and an upload in
 * flight may end: those files still ask.
 */
export function refusesTheRoute(error: unknown): boolean {
  return (
    limitRefusal(error) === 'give-up' &&
    isUploadClientError(error) &&
    (error.answerCode === 'RATE_LIMITED' || error.limit === 'files')
  );
}

/**
 * Whether `error` is a refusal because the subject's uploads in flight are full (`QUOTA_EXCEEDED`,
 * `limit: 'inFlight'`): one of them ending frees a place, often long before its `Retry-After` (which counts
 * to the first one's expiry).
 */
export function inFlightFull(error: unknown): boolean {
  return isUploadClientError(error) && error.code === 'PREPARE_FAILED' && error.answerCode === 'QUOTA_EXCEEDED' && error.limit === 'inFlight';
}
