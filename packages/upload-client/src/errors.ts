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
  /**
   * A part's answer had no readable `ETag`: the bucket's CORS rule must expose it (`ExposeHeaders: ["ETag"]`),
   * or a multipart upload cannot complete.
   */
  | 'MISSING_ETAG';

const NAME = 'UploadClientError';

/**
 * The one error class of the browser engine (cancel excepted: see {@link createAbortError}).
 * `status` is the HTTP status when there was an answer; `cause` keeps the underlying error.
 */
export class UploadClientError extends Error {
  override readonly name = NAME;
  readonly code: UploadClientErrorCode;
  /** HTTP status of the answer that failed, when there was one. */
  readonly status: number | undefined;

  constructor(code: UploadClientErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

/** True for an {@link UploadClientError}, also one from another copy of this package (checks `name`). */
export function isUploadClientError(value: unknown): value is UploadClientError {
  return value instanceof Error && value.name === NAME;
}

/** Message of the error a cancelled upload rejects with (SPEC 8). */
export const ABORT_MESSAGE = 'Upload aborted.';

/** The error a cancelled upload rejects with: a `DOMException` named `AbortError`, message `Upload aborted.`. */
export function createAbortError(): DOMException {
  return new DOMException(ABORT_MESSAGE, 'AbortError');
}

/** True for the error of a cancelled upload (any `AbortError`, as `fetch` also throws). */
export function isAbortError(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError';
}
