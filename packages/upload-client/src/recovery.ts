/**
 * What happens after a failed storage request, decided in one place. The code that reads an answer marks
 * the error with its recovery ({@link withRecovery}: it alone knows that a 403 came from an expired URL, or
 * that the session has just corrected its clock); {@link nextStep} turns any error into the next step and
 * its wait. The shape of ky's one retry classifier (`ForceRetryError { customDelay }`): nobody overrides a
 * delay from outside.
 */
import { isUploadClientError, OVERWRITE_REFUSED_MESSAGE, UploadClientError } from './errors';
import { limitRefusal } from './limit-refusal';
import { backoffDelay, isRetryable, retryDelay, type RetryListener } from './retry';

/**
 * How a failed request recovers:
 * - `retry`: send the same request again after the backoff (or the answer's `Retry-After`);
 * - `sign-again`: its signature expired (a presigned URL past its `X-Amz-Expires`): a fresh one, at once;
 * - `renew-credentials`: storage refused expired temporary credentials (`ExpiredToken`): the session renews
 *   them before the next signature, sent at once;
 * - `correct-clock`: storage refused the signature's date (`RequestTimeTooSkewed`): the session corrected
 *   its clock, sign again at once;
 * - `hash-again`: storage refused the body's checksum (`checksum-refusal.ts`, read by `sendLoop` for a request
 *   sent with one): the bytes changed on the way, or on disk since they were hashed: hash them again and sign
 *   again (the value is signed), at once, once per request (a second one is final);
 * - `already-done`: an earlier attempt that got no answer did the work (a CompleteMultipartUpload retried
 *   after a lost answer finds no such upload): done, nothing to send;
 * - `give-up`: no attempt can cure it (a refusal, a bad option, a failure of a step that retried itself).
 */
export type Recovery = 'retry' | 'sign-again' | 'renew-credentials' | 'correct-clock' | 'hash-again' | 'already-done' | 'give-up';

/** The recoveries set where the answer was read (kept off the public error class). */
const marked = new WeakMap<object, Recovery>();

/** Marks `error` with its recovery. @returns `error`, to throw it. */
export function withRecovery<E extends object>(error: E, recovery: Recovery): E {
  marked.set(error, recovery);
  return error;
}

/** A final `STORAGE_ERROR` saying `message` in place of storage's refusal `error` (its status and code kept, `cause` it). */
export const finalRefusal = ({ status, answerCode }: UploadClientError, message: string, cause: UploadClientError) =>
  new UploadClientError('STORAGE_ERROR', message, { status, answerCode, cause });

/** Whether storage refused a write with `If-None-Match: *` because the key holds an object (412 `PreconditionFailed`). */
export function isOverwriteRefusal(error: unknown): error is UploadClientError {
  return isUploadClientError(error) && error.code === 'STORAGE_ERROR' && error.status === 412;
}

/** The final error of a write refused by `If-None-Match: *`: {@link OVERWRITE_REFUSED_MESSAGE}, `cause` the refusal. */
export const overwriteRefusedError = (error: UploadClientError): UploadClientError => finalRefusal(error, OVERWRITE_REFUSED_MESSAGE, error);

/** The bookkeeping of one request's attempts that storage may have carried out although the answer was lost. */
export interface AttemptWatch {
  /** A retry listener of the request: notes whether an attempt got no answer. */
  onRetry: RetryListener;
  /**
   * Reads the request's last error by the one rule of a lost answer: after an attempt that got no answer, a
   * refusal that says it did the work (`doneAfterLoss`; with `If-None-Match: *`, a 412: the object it stored)
   * means done (marked `already-done`); a 412 otherwise is final, {@link overwriteRefusedError}.
   * @returns when done.
   * @throws the final error: the overwrite refusal, else `error` itself.
   */
  settle(error: unknown): void;
}

/**
 * The {@link AttemptWatch} of one request: a single PUT or a CompleteMultipartUpload with `If-None-Match: *`
 * (`ifNoneMatch`), or a complete whose retry finds `doneAfterLoss` (no such upload).
 */
export function attemptWatch(ifNoneMatch: boolean, doneAfterLoss?: (error: unknown) => boolean): AttemptWatch {
  let unanswered = false;
  return {
    onRetry: ({ error }) => {
      unanswered ||= isUploadClientError(error) && error.code === 'NETWORK_ERROR';
    },
    settle: (error) => {
      const refused = ifNoneMatch && isOverwriteRefusal(error);
      if (unanswered && (refused || doneAfterLoss?.(error))) return void withRecovery(error as Error, 'already-done');
      throw refused ? overwriteRefusedError(error) : error;
    },
  };
}

/**
 * The recovery of `error`: the one it was marked with; for a preparation refused by a quota or rate limit,
 * `retry` when it frees within 60 s (`RATE_LIMITED`, `QUOTA_EXCEEDED` of the uploads in flight), else
 * `give-up` ({@link limitRefusal}); else `retry` for what another attempt may cure (no answer, 408, 429, 500, 502, 503, 504, S3 `SlowDown`, `RequestTimeout`,
 * `InternalError`, a part answer without a readable ETag), else `give-up`.
 */
export function recoveryOf(error: unknown): Recovery {
  const set = typeof error === 'object' && error !== null ? marked.get(error) : undefined;
  if (set) return set;
  const limited = limitRefusal(error);
  if (limited) return limited === 'give-up' ? 'give-up' : 'retry';
  return isRetryable(error) ? 'retry' : 'give-up';
}

/** The next step after a failed attempt. */
export interface NextStep {
  recovery: Exclude<Recovery, 'give-up'>;
  /** Wait before it, in milliseconds (0 for a fresh signature or hash, or when already done). */
  delayMs: number;
  /** Whether the request must be signed again before it is sent (the last signature cannot succeed). */
  signAgain: boolean;
}

/**
 * The one function that turns a failure into what comes next.
 * @param retry - Number of the retry about to be made (1 for the first).
 * @returns the step, or `undefined` to give up (the caller throws the error).
 */
export function nextStep(error: unknown, retry: number): NextStep | undefined {
  const recovery = recoveryOf(error);
  if (recovery === 'give-up') return undefined;
  // A backoff for what may pass (a limit's whole Retry-After, up to 60 s); none for a fresh signature (its
  // cause is repaired) or work already done.
  const limited = limitRefusal(error);
  const limitWait = typeof limited === 'object' ? limited.waitMs : undefined;
  const delayMs = recovery === 'retry' ? (limitWait ?? retryDelay(error, retry) ?? backoffDelay(retry)) : 0;
  return { recovery, delayMs, signAgain: recovery !== 'retry' && recovery !== 'already-done' };
}
