import { INTERNAL_ERROR_BODY, type UploadErrorBody } from '@upbeam/upload-protocol';

/**
 * Every error the handler can answer with, mapped to its HTTP status. 4xx codes are sent to the browser
 * with their message; 5xx codes are logged and answered with the SPEC's `{ error: 'Internal Server Error' }`.
 */
export const UPLOAD_ERROR_STATUS = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  FILE_TYPE_NOT_ALLOWED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MISSING_SETTINGS: 500,
  INVALID_SETTINGS: 500,
  INVALID_OBJECT_KEY: 500,
  INTERNAL_SERVER_ERROR: 500,
} as const;

/** A code from {@link UPLOAD_ERROR_STATUS}. */
export type UploadErrorCode = keyof typeof UPLOAD_ERROR_STATUS;

const NAME = 'UploadError';

/**
 * The one error class of the upload handler. Its `code` fixes the HTTP status
 * ({@link UPLOAD_ERROR_STATUS}); `cause` keeps the original error for the server log.
 *
 * @example
 * throw new UploadError('INVALID_REQUEST', '"filename" must be a non-empty string.');
 */
export class UploadError extends Error {
  override readonly name = NAME;
  /** Machine-readable code, sent to the browser on 4xx answers. */
  readonly code: UploadErrorCode;
  /** HTTP status this error answers with. */
  readonly status: number;

  constructor(code: UploadErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = UPLOAD_ERROR_STATUS[code];
  }
}

/** True for an {@link UploadError}, also one from another copy of this package (checks `name`). */
export function isUploadError(value: unknown): value is UploadError {
  return value instanceof Error && value.name === NAME && 'code' in value;
}

/**
 * Turns any thrown value into the endpoint's answer. A 4xx {@link UploadError} becomes
 * `{ error, code }` with its status; anything else is passed to `log` and becomes the 500
 * `{ error: 'Internal Server Error' }`, so that storage or STS error text (which can hold account ARNs)
 * never reaches the browser.
 */
export function errorToResponse(error: unknown, log: (error: unknown) => void): Response {
  if (isUploadError(error) && error.status < 500) {
    const body: UploadErrorBody = { error: error.message, code: error.code };
    const headers = error.code === 'METHOD_NOT_ALLOWED' ? { Allow: 'POST' } : undefined;
    return Response.json(body, { status: error.status, headers });
  }
  log(error);
  return Response.json(INTERNAL_ERROR_BODY, { status: 500 });
}
