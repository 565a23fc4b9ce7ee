import { INTERNAL_ERROR_BODY, type ChecksumAlgorithm, type UploadErrorBody } from '@upbeam/upload-protocol';
import { toResponse, type JsonAnswer } from './json-answer';
import type { LimitName } from './limit-store';

/**
 * Every error the handler can answer with, mapped to its HTTP status. 4xx codes (and 501 `NOT_SUPPORTED`)
 * are sent to the browser with their message; other 5xx codes are logged and answered with SPEC 7.1's
 * `{ error: 'Internal Server Error' }`.
 *
 * Multipart and renew operations add: `TOO_MANY_PARTS` (400, SPEC 8 `Exceeded 10000 parts in multipart
 * upload`), `INVALID_PART` (400: a part's ETag is not the one storage holds), `INVALID_TICKET` (403: forged,
 * altered, or of another upload), `TICKET_EXPIRED` (403: past its 24 hours), `NO_SUCH_UPLOAD` (404: storage
 * no longer has the multipart upload: it was completed or aborted), `NOT_SUPPORTED` (501: storage has no
 * ListParts). Completion adds `COMPLETION_IN_PROGRESS` (409: `onUploadComplete` runs for this upload in
 * another request; ask again).
 *
 * The presigned-post strategy adds `FILE_TOO_LARGE_FOR_POST` (400: a file over 5 GiB, `MAX_SINGLE_PUT_SIZE`, which
 * one POST cannot store; the message names the other strategies).
 *
 * Routes add `UNKNOWN_ROUTE` (404: the body's `route` is not one of the handler's, or is missing).
 *
 * The node adapter adds `REQUEST_TIMEOUT` (408: the request body did not arrive within `bodyTimeoutMs`).
 *
 * Checksums add `INVALID_CHECKSUM` (400: a checksum that is not base64 of a digest of its algorithm's length, or a
 * part's missing), `CHECKSUM_REQUIRED` (400: a presigned single PUT must carry its file's checksum, signed into
 * its URL), `CHECKSUM_UNSUPPORTED` (400: storage does not verify the algorithm asked for), both with the route's
 * algorithm as `checksum` in the body, and `CHECKSUM_MISMATCH` (409: the stored object's checksum is not the one
 * its upload was prepared with; the object is deleted, or storage refused the multipart checksum), and
 * `OBJECT_EXISTS` (409: storage refused to complete over an object already at the key, `conditionalWrites`).
 *
 * Quotas and rate limits (`limits`) add `RATE_LIMITED` (429: too many preparations in the window),
 * `QUOTA_EXCEEDED` (429: the bytes or files of the window, or the uploads in flight at once), both answered with
 * a `Retry-After` header and `limit` and `retryAfter` in the body, and `LIMITS_UNAVAILABLE` (503, sent to the
 * browser with its message: the limit store did not answer and `limitStoreFailure` is `'fail-closed'`).
 */
export const UPLOAD_ERROR_STATUS = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  FILE_TYPE_NOT_ALLOWED: 400,
  TOO_MANY_PARTS: 400,
  INVALID_PART: 400,
  INVALID_CHECKSUM: 400,
  CHECKSUM_REQUIRED: 400,
  CHECKSUM_UNSUPPORTED: 400,
  FILE_TOO_LARGE_FOR_POST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  INVALID_TICKET: 403,
  TICKET_EXPIRED: 403,
  NO_SUCH_UPLOAD: 404,
  UNKNOWN_ROUTE: 404,
  COMPLETION_IN_PROGRESS: 409,
  CHECKSUM_MISMATCH: 409,
  OBJECT_EXISTS: 409,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  MISSING_SETTINGS: 500,
  INVALID_SETTINGS: 500,
  INVALID_OBJECT_KEY: 500,
  INTERNAL_SERVER_ERROR: 500,
  NOT_SUPPORTED: 501,
  LIMITS_UNAVAILABLE: 503,
} as const;

/** A code from {@link UPLOAD_ERROR_STATUS}. */
export type UploadErrorCode = keyof typeof UPLOAD_ERROR_STATUS;

const NAME = 'UploadError';

/** Options of an {@link UploadError}. */
export interface UploadErrorOptions {
  /** The original error, kept for the server log (never sent to the browser). */
  cause?: unknown;
  /**
   * Seconds after which the browser may try again, a whole number of at least 1: sent as the `Retry-After`
   * header and as `retryAfter` in the body (with a 4xx or 503 code). Upbeam's client waits that long before it
   * retries a `RATE_LIMITED` refusal.
   */
  retryAfter?: number;
  /** The limit that refused (`RATE_LIMITED`, `QUOTA_EXCEEDED`): sent as `limit` in the body. */
  limit?: LimitName;
  /** The algorithm the route takes (`CHECKSUM_REQUIRED`, `CHECKSUM_UNSUPPORTED`): sent as `checksum` in the body. */
  checksum?: ChecksumAlgorithm;
}

/**
 * The one error class of the upload handler. Its `code` fixes the HTTP status
 * ({@link UPLOAD_ERROR_STATUS}); `cause` keeps the original error for the server log; `retryAfter` and
 * `limit` describe a refusal by a quota or rate limit (see {@link UploadErrorOptions}).
 *
 * @example
 * throw new UploadError('INVALID_REQUEST', '"filename" must be a non-empty string.');
 * // An app's own rate limit in onBeforeUpload: 429, Retry-After: 30
 * throw new UploadError('RATE_LIMITED', 'Too many uploads started: try again in 30 seconds.', { retryAfter: 30 });
 */
export class UploadError extends Error {
  override readonly name = NAME;
  /** Machine-readable code, sent to the browser on 4xx answers. */
  readonly code: UploadErrorCode;
  /** HTTP status this error answers with. */
  readonly status: number;
  /** Seconds until the browser may try again (the `Retry-After` header); undefined: none sent. */
  readonly retryAfter: number | undefined;
  /** The quota or rate limit that refused; undefined for other errors. */
  readonly limit: LimitName | undefined;
  /** The algorithm the route takes, on a checksum refusal; undefined for other errors. */
  readonly checksum: ChecksumAlgorithm | undefined;

  constructor(code: UploadErrorCode, message: string, options?: UploadErrorOptions) {
    super(message, options && 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    this.status = UPLOAD_ERROR_STATUS[code];
    this.retryAfter = options?.retryAfter;
    this.limit = options?.limit;
    this.checksum = options?.checksum;
  }
}

/** True for an {@link UploadError}, also one from another copy of this package (checks `name`). */
export function isUploadError(value: unknown): value is UploadError {
  return value instanceof Error && value.name === NAME && 'code' in value;
}

/**
 * True for an error whose message and code the browser may see: every 4xx, 501 `NOT_SUPPORTED` and 503
 * `LIMITS_UNAVAILABLE` (our own words; the store's error goes to `onError`).
 */
function isForTheBrowser(error: UploadError): boolean {
  return error.status < 500 || error.code === 'NOT_SUPPORTED' || error.code === 'LIMITS_UNAVAILABLE';
}

/** The `Retry-After` value of an error: a whole number of seconds, at least 1; undefined for none. */
function retryAfterOf(error: UploadError): number | undefined {
  const { retryAfter } = error;
  return typeof retryAfter === 'number' && Number.isFinite(retryAfter) ? Math.max(1, Math.ceil(retryAfter)) : undefined;
}

/**
 * Turns any thrown value into the endpoint's answer. A 4xx {@link UploadError} (or 501 `NOT_SUPPORTED`, 503
 * `LIMITS_UNAVAILABLE`) becomes `{ error, code }` with its status (and, with `retryAfter`, a `Retry-After`
 * header and `limit` and `retryAfter` in the body); anything else is passed to `log` and becomes the 500
 * `{ error: 'Internal Server Error' }`, so that storage or STS error text (which can hold account ARNs)
 * never reaches the browser.
 */
export function errorToResponse(error: unknown, log: (error: unknown) => void): Response {
  return toResponse(errorToAnswer(error, log));
}

/** {@link errorToResponse}'s answer, before it is a `Response` (the node adapter writes it itself). */
export function errorToAnswer(error: unknown, log: (error: unknown) => void): JsonAnswer {
  if (isUploadError(error) && isForTheBrowser(error)) {
    const body: UploadErrorBody = { error: error.message, code: error.code };
    if (error.checksum !== undefined) body.checksum = error.checksum;
    if (error.code === 'METHOD_NOT_ALLOWED') return { status: error.status, body, headers: { allow: 'POST' } };
    const retryAfter = retryAfterOf(error);
    if (retryAfter === undefined) return { status: error.status, body };
    if (error.limit !== undefined) body.limit = error.limit;
    body.retryAfter = retryAfter;
    return { status: error.status, body, headers: { 'retry-after': String(retryAfter) } };
  }
  log(error);
  return { status: 500, body: INTERNAL_ERROR_BODY };
}

/**
 * The default `onError` (the app's, `app.ts`): the handler, a route's completion, `reconcileUploads` and
 * `completeNotifiedUploads` log an unexpected error with it when the config gives no `onError`.
 */
export function logUnexpectedError(error: unknown): void {
  console.error('[upbeam] unexpected error:', error);
}
