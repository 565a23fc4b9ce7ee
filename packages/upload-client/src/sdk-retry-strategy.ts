/**
 * The AWS SDK retry strategy of the multipart engine, so that CreateMultipartUpload, UploadPart,
 * PutObject, CompleteMultipartUpload and AbortMultipartUpload are retried exactly like the presigned PUT:
 * the same attempts, the same retryable failures, the same backoff and Retry-After cap, the same
 * `onRetry` events, and a wait that a cancel ends at once.
 */
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { isAbortError } from './abort';
import { backoffDelay, isRetryableAnswer, MAX_RETRY_DELAY_MS, waitForRetry, type RetrySettings } from './retry';
import { sdkErrorStatus, toClientError } from './sdk-errors';
import { MISSING_ETAG_NAME, NETWORK_ERROR_NAME } from './xhr-transport';

/** The SDK's `RetryStrategyV2` (from `@smithy/types`), as the S3 client's config names it. */
type RetryStrategyV2 = Extract<NonNullable<S3ClientConfig['retryStrategy']>, { refreshRetryTokenForRetry: unknown }>;
type RetryToken = Awaited<ReturnType<RetryStrategyV2['acquireInitialRetryToken']>>;
type RetryErrorInfo = Parameters<RetryStrategyV2['refreshRetryTokenForRetry']>[1];

/** Errors without an answer that another attempt may cure: our transport's, and the SDK's timeout. */
const RETRYABLE_UNANSWERED = [NETWORK_ERROR_NAME, MISSING_ETAG_NAME, 'TimeoutError'];

function token(retries: number): RetryToken {
  return { getRetryCount: () => retries, getRetryDelay: () => 0 };
}

/**
 * Wait before retry `retry` after an SDK error, in milliseconds, or `undefined` when it must not be
 * retried. Storage's answers carry their S3 code as the error's name (`SlowDown`); the SDK reads
 * `Retry-After` into `retryAfterHint` when the browser could read the header.
 */
export function sdkRetryDelay(
  info: RetryErrorInfo,
  retry: number,
  random: () => number = Math.random,
  now = Date.now(),
): number | undefined {
  const { error } = info;
  if (!error || isAbortError(error)) return undefined;
  const status = sdkErrorStatus(error);
  const retryable =
    status === undefined ? RETRYABLE_UNANSWERED.includes(error.name) : isRetryableAnswer(status, error.name);
  if (!retryable) return undefined;
  const hint = info.retryAfterHint;
  if (hint instanceof Date) return Math.min(MAX_RETRY_DELAY_MS, Math.max(0, hint.getTime() - now));
  return backoffDelay(retry, random);
}

/**
 * A `RetryStrategyV2` for the S3 client: `settings.maxAttempts` attempts per request, retrying network
 * errors, a part answer without ETag, 408, 429, 500, 502, 503, 504 and S3 `SlowDown`. The strategy waits
 * itself (the token's delay is 0) so that a cancel ends the wait at once; once cancelled, nothing is
 * retried (the AbortMultipartUpload of a cancelled upload gets one attempt, so that cancel stays quick).
 */
export function createRetryStrategy(settings: RetrySettings, signal: AbortSignal | undefined): RetryStrategyV2 {
  return {
    acquireInitialRetryToken: async () => token(0),
    async refreshRetryTokenForRetry(previous, info) {
      const retry = previous.getRetryCount() + 1;
      const delayMs =
        retry < settings.maxAttempts && !signal?.aborted ? sdkRetryDelay(info, retry) : undefined;
      if (delayMs === undefined) throw info.error ?? new Error('Not retried.');
      settings.onRetry?.({ attempt: retry + 1, delayMs, error: toClientError(info.error) });
      await waitForRetry(delayMs, signal);
      return token(retry);
    },
    recordSuccess: () => {},
  };
}
