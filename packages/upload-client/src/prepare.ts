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

/** What the endpoint answered with 2xx: its JSON body, and where it was asked. */
interface EndpointAnswer {
  answer: unknown;
  status: number;
  url: string;
}

/**
 * POSTs `{ filename, filetype, filesize, _upload, ...body }` to the endpoint once.
 * @throws as {@link postToEndpoint}, on the first failure.
 */
async function postOnce(upload: UploadContext, marker: UploadRequestBody['_upload']): Promise<EndpointAnswer> {
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
    noAnswer: `Could not reach the upload endpoint ${url}.`,
  });
  let answer: unknown;
  try {
    answer = JSON.parse(xhr.responseText);
  } catch {
    // Not JSON: a proxy's error page, say. A 2xx then fails the field check.
  }
  const { status } = xhr;
  if (!isSuccess(xhr)) {
    const { error, code } = (answer ?? {}) as Partial<UploadErrorBody>;
    const message = typeof error === 'string' && error ? error : `Upload endpoint answered ${status}.`;
    throw refusal('PREPARE_FAILED', message, xhr, typeof code === 'string' ? code : undefined);
  }
  return { answer, status, url };
}

/**
 * POSTs `{ filename, filetype, filesize, _upload, ...body }` to the preparation endpoint. A network error
 * or a 408, 429, 500, 502, 503 or 504 answer is retried (`upload.retry.maxAttempts` attempts in all,
 * backoff or the endpoint's `Retry-After`); any other answer is final.
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts (a retry wait ends at once).
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the endpoint's `error` text (e.g.
 *   `Internal Server Error`) and `status` on a non-2xx answer; `NETWORK_ERROR` when the endpoint cannot be
 *   reached. Both after the last attempt.
 */
export function postToEndpoint(upload: UploadContext, marker: UploadRequestBody['_upload']): Promise<EndpointAnswer> {
  return withRetries(() => postOnce(upload, marker), upload.retry, upload.options.signal);
}

/** The value at a dotted path (`token.Credentials.AccessKeyId`) of a JSON answer. */
const valueAt = (answer: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown> | null | undefined)?.[name], answer);

/**
 * Asks the endpoint to prepare an upload with `strategy` (`_upload: { strategy }`), retried as
 * {@link postToEndpoint}, and checks that the answer has `key`, `bucket` and the strategy's `fields`
 * (dotted paths) as non-empty strings, so that a wrong answer fails here with a clear message, not later.
 *
 * @throws as {@link postToEndpoint}; {@link UploadClientError} `INVALID_PREPARE_RESPONSE`, naming the
 *   missing fields, when a 2xx answer lacks some.
 */
export async function prepareUpload<S extends UploadStrategy>(
  upload: UploadContext,
  strategy: S,
  fields: readonly string[],
): Promise<PreparedUpload[S]> {
  const { answer, status, url } = await postToEndpoint(upload, { strategy });
  const missing = ['key', 'bucket', ...fields].filter((path) => {
    const value = valueAt(answer, path);
    return typeof value !== 'string' || !value;
  });
  if (missing.length > 0) {
    throw new UploadClientError(
      'INVALID_PREPARE_RESPONSE',
      `Upload endpoint ${url} answered without ${missing.join(', ')}: is it an Upbeam handler offering the ${strategy} strategy?`,
      { status },
    );
  }
  return answer as PreparedUpload[S];
}
