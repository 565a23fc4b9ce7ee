import {
  DEFAULT_UPLOAD_ENDPOINT,
  type PresignedUploadResponse,
  type TemporaryTokenUploadResponse,
  type UploadErrorBody,
  type UploadRequestBody,
  type UploadStrategy,
} from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import { isSuccess, refusal, sendRequest } from './http-request';
import { withRetries } from './retry';
import type { UploadContext } from './upload-file';

/** Where and how to reach the preparation endpoint. */
export interface PrepareEndpoint {
  /** URL of the preparation endpoint. @default '/api/s3-upload' */
  url?: string;
  /** Extra request headers (e.g. an auth token). `Content-Type: application/json` is always sent. */
  headers?: Record<string, string>;
  /** Extra JSON body fields sent beside `filename`, `filetype` and `_upload`; they cannot replace those. */
  body?: Record<string, unknown>;
}

/** What the endpoint answers for each strategy. */
export interface PreparedUpload {
  presigned: PresignedUploadResponse;
  'temporary-token': TemporaryTokenUploadResponse;
}

/** The value at a dotted path (`token.Credentials.AccessKeyId`) of a JSON answer. */
const valueAt = (answer: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown> | null | undefined)?.[name], answer);

/**
 * POSTs `{ filename, filetype, filesize, _upload, ...body }` to the endpoint once and checks the answer.
 * @throws as {@link postToEndpoint}, on the first failure.
 */
async function postOnce(upload: UploadContext, marker: UploadRequestBody['_upload'], fields: readonly string[]): Promise<unknown> {
  const { file, options } = upload;
  const { endpoint } = options;
  const url = endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT;
  const body: UploadRequestBody = {
    ...endpoint?.body,
    filename: file.name,
    filetype: upload.filetype,
    filesize: file.size,
    _upload: marker,
  };
  const xhr = await sendRequest({
    method: 'POST',
    url,
    headers: { ...endpoint?.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
    json: true,
    noAnswer: `Could not reach the upload endpoint ${url}.`,
  });
  // The parsed JSON body; null when the answer is not JSON (a proxy's error page, say).
  const answer: unknown = xhr.response;
  const { status } = xhr;
  if (!isSuccess(xhr)) {
    const { error, code } = (answer ?? {}) as Partial<UploadErrorBody>;
    throw refusal('PREPARE_FAILED', String(error || `Upload endpoint answered ${status}.`), xhr, code);
  }
  const missing = fields.filter((path) => {
    const value = valueAt(answer, path);
    return typeof value !== 'string' || !value;
  });
  if (missing.length > 0) {
    throw new UploadClientError(
      'INVALID_PREPARE_RESPONSE',
      `Upload endpoint ${url} answered without ${missing.join(', ')}: not an Upbeam ${marker.strategy} handler?`,
      { status },
    );
  }
  return answer;
}

/**
 * POSTs `{ filename, filetype, filesize, _upload, ...body }` to the preparation endpoint and checks that
 * its answer has `fields` (dotted paths) as non-empty strings, so that a wrong answer fails here with a
 * clear message, not later. A network error or a 408, 429, 500, 502, 503 or 504 answer is retried
 * (`upload.retry.maxAttempts` attempts in all, backoff or the endpoint's `Retry-After`); any other
 * answer is final.
 *
 * @returns the answer's JSON body.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts (a retry wait ends at once).
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the endpoint's `error` text (e.g.
 *   `Internal Server Error`) and `status` on a non-2xx answer; `NETWORK_ERROR` when the endpoint cannot be
 *   reached (both after the last attempt); `INVALID_PREPARE_RESPONSE`, naming the missing fields.
 */
export function postToEndpoint(
  upload: UploadContext,
  marker: UploadRequestBody['_upload'],
  fields: readonly string[] = [],
): Promise<unknown> {
  return withRetries(() => postOnce(upload, marker, fields), upload.retry, upload.options.signal);
}

/**
 * Asks the endpoint to prepare an upload with `strategy` (`_upload: { strategy }`): {@link postToEndpoint}
 * with `key`, `bucket` and the strategy's own `fields` required.
 */
export async function prepareUpload<S extends UploadStrategy>(
  upload: UploadContext,
  strategy: S,
  fields: readonly string[],
): Promise<PreparedUpload[S]> {
  return (await postToEndpoint(upload, { strategy }, ['key', 'bucket', ...fields])) as PreparedUpload[S];
}
