import type { UploadErrorBody } from '@upbeam/upload-protocol';

/** Codes of {@link UploadClientError}. */
export type UploadClientErrorCode =
  /** The preparation endpoint answered non-2xx; `message` is its `error` text. */
  | 'PREPARE_FAILED'
  /** The preparation endpoint answered 2xx with a body that is not a prepared upload. */
  | 'INVALID_PREPARE_RESPONSE'
  /** Storage answered the upload with a non-2xx status. */
  | 'STORAGE_ERROR'
  /** The request did not get an answer (offline, DNS, CORS refusal, connection reset). */
  | 'NETWORK_ERROR'
  /** An option is out of range (part size, queue size, too many parts, unknown strategy); nothing was sent. */
  | 'INVALID_OPTIONS'
  /** A batch held more files than `maxFiles` (the route's rule); nothing was sent. */
  | 'TOO_MANY_FILES'
  /**
   * A part's answer had no readable `ETag`: the bucket's CORS rule must expose it (`ExposeHeaders: ["ETag"]`),
   * or a multipart upload cannot complete.
   */
  | 'MISSING_ETAG'
  /**
   * A file restored by a tracker with `persist` (after a reload or a crash) can no longer be read: the browser
   * kept its entry but not its bytes (the file was moved, changed or deleted on disk, or the engine's storage
   * dropped it). Nothing was sent; the file leaves the kept queue: pick it again.
   */
  | 'FILE_UNREADABLE';

const NAME = 'UploadClientError';

/** What a refusing answer said, as an {@link UploadClientError} carries it; `cause` keeps the underlying error. */
export interface UploadClientErrorDetails {
  /** HTTP status of the answer. */
  status?: number | undefined;
  /** The answer's own error code: S3's `<Code>` from storage, or the endpoint's `code`. */
  answerCode?: string | undefined;
  /**
   * The answer's `Retry-After` header as sent (seconds or an HTTP date), when the browser could read it; from
   * the endpoint, else the seconds of its body's `retryAfter`.
   */
  retryAfter?: string | undefined;
  /** The endpoint's refusal by a quota or rate limit: which limit (its body's `limit`). */
  limit?: UploadErrorBody['limit'];
  cause?: unknown;
}

/**
 * The one error class of the browser engine (cancel excepted: see `createAbortError`). When an answer
 * refused the request, the error carries its `status`, its own error code (`answerCode`) and its
 * `Retry-After`: what the retry policy reads. `cause` keeps the underlying error.
 */
export class UploadClientError extends Error {
  override readonly name = NAME;
  declare readonly code: UploadClientErrorCode;
  /** HTTP status of the answer that failed, when there was one. */
  declare readonly status: number | undefined;
  /**
   * The answer's own error code, when it had one: S3's `<Code>` from storage (`SlowDown`, `AccessDenied`,
   * `EntityTooLarge`), or the endpoint's `code` (`FILE_TOO_LARGE`, `UNAUTHORIZED`).
   */
  declare readonly answerCode: string | undefined;
  /**
   * The answer's `Retry-After` header as sent (seconds or an HTTP date). From storage on another origin the
   * browser can read it only if the bucket's CORS rule exposes it (`ExposeHeaders`).
   */
  declare readonly retryAfter: string | undefined;
  /**
   * When the endpoint refused the preparation by a quota or rate limit (`status` 429, `answerCode`
   * `RATE_LIMITED` or `QUOTA_EXCEEDED`): the limit reached, `preparations` (a rate limit), `bytes` or `files`
   * (per window) or `inFlight` (uploads at once); `undefined` otherwise. The message says it in words, e.g.
   * `Upload quota reached: at most 1,000 files per day. Try again in 3 hours.`
   */
  declare readonly limit: UploadErrorBody['limit'];

  constructor(code: UploadClientErrorCode, message: string, details: UploadClientErrorDetails = {}) {
    super(message, details);
    Object.assign(this, details, { code });
  }
}

/** True for an {@link UploadClientError}, also one from another copy of this package (checks `name`). */
export function isUploadClientError(value: unknown): value is UploadClientError {
  return value instanceof Error && value.name === NAME;
}

/**
 * Message of a `NETWORK_ERROR` from storage: the request got no answer the page may read. A bucket without
 * a CORS rule for the page's origin looks exactly like a network failure to the browser.
 */
export const NO_ANSWER_MESSAGE = 'No answer from storage: network down, or no CORS rule for this origin.';

/** Message of the `STORAGE_ERROR` of a body storage refused twice for its checksum (`BadDigest`, ...). */
export const CHECKSUM_REFUSED_MESSAGE = 'The file changed while it was read, or was corrupted on the way: storage refused its checksum.';

/** Message of the `STORAGE_ERROR` of a write refused by `If-None-Match: *` (412): the key holds an object. */
export const OVERWRITE_REFUSED_MESSAGE = 'An object already exists under this key (storage refuses to overwrite it).';

/**
 * Message of a `STORAGE_ERROR`: the status, S3's `<Code>` and `<Message>` when storage sent them, e.g.
 * `Storage refused the upload (403 AccessDenied): Request has expired`.
 */
export function storageRefusalMessage(status: number, code?: string, message?: string): string {
  return `Storage refused the upload (${status}${code ? ` ${code}` : ''})${message ? `: ${message}` : '.'}`;
}
