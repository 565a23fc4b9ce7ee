import {
  DEFAULT_UPLOAD_ENDPOINT,
  type PresignedUploadResponse,
  type TemporaryTokenUploadResponse,
  type UploadErrorBody,
  type UploadRequestBody,
  type UploadStrategy,
} from '@upbeam/upload-protocol';
import { createAbortError, UploadClientError } from './errors';
import { HttpFailure } from './http-failure';
import { withRetries, type RetrySettings } from './retry';

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

/** One request to the preparation endpoint. */
export interface PrepareInput<S extends UploadStrategy> {
  filename: string;
  filetype: string;
  /** Size of the file in bytes, for servers that limit it. */
  filesize: number;
  strategy: S;
  endpoint?: PrepareEndpoint | undefined;
  signal?: AbortSignal | undefined;
  /** Attempts and the retry listener; a network error, 408, 429, 500, 502, 503 or 504 is retried. */
  retry: RetrySettings;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Checks the fields the engine reads, so a wrong answer fails here with a clear message, not later. */
function isPrepared<S extends UploadStrategy>(strategy: S, value: unknown): value is PreparedUpload[S] {
  const v = value as Partial<PresignedUploadResponse & TemporaryTokenUploadResponse> | null;
  if (!isString(v?.key) || !isString(v.bucket)) return false;
  if (strategy === 'presigned') return isString(v.url);
  const credentials = v.token?.Credentials;
  return (
    isString(v.region) &&
    isString(credentials?.AccessKeyId) &&
    isString(credentials.SecretAccessKey) &&
    isString(credentials.SessionToken)
  );
}

/**
 * POSTs `{ filename, filetype, filesize, _upload, ...body }` to the endpoint once and returns its JSON answer.
 * @throws as {@link prepareUpload}, but `INVALID_PREPARE_RESPONSE`.
 */
async function postOnce(
  input: PrepareInput<UploadStrategy>,
  marker: UploadRequestBody['_upload'],
): Promise<{ answer: unknown; status: number; url: string }> {
  const url = input.endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT;
  const body: UploadRequestBody = {
    ...input.endpoint?.body,
    filename: input.filename,
    filetype: input.filetype,
    filesize: input.filesize,
    _upload: marker,
  };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { ...input.endpoint?.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: input.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw createAbortError();
    throw new UploadClientError('NETWORK_ERROR', `Could not reach the upload endpoint ${url}.`, { cause: error });
  }
  const answer = await readJson(response);
  if (input.signal?.aborted) throw createAbortError();
  if (!response.ok) {
    const error = (answer as UploadErrorBody | undefined)?.error;
    const message = typeof error === 'string' && error !== '' ? error : `Upload endpoint answered ${response.status}.`;
    const code = (answer as UploadErrorBody | undefined)?.code;
    throw new UploadClientError('PREPARE_FAILED', message, {
      status: response.status,
      cause: new HttpFailure(message, {
        status: response.status,
        code: typeof code === 'string' ? code : undefined,
        retryAfter: response.headers.get('Retry-After') ?? undefined,
      }),
    });
  }
  return { answer, status: response.status, url };
}

/** {@link postOnce}, retried on a network error or a retryable status (`Retry-After` honoured). */
function postToEndpoint(
  input: PrepareInput<UploadStrategy>,
  marker: UploadRequestBody['_upload'],
): Promise<{ answer: unknown; status: number; url: string }> {
  return withRetries(() => postOnce(input, marker), input.retry, input.signal);
}

/**
 * POSTs `{ filename, filetype, filesize, _upload: { strategy }, ...body }` to the preparation endpoint.
 *
 * A network error or a 408, 429, 500, 502, 503 or 504 answer is retried (`input.retry.maxAttempts`
 * attempts in all, backoff or the endpoint's `Retry-After`); any other answer is final.
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts (a retry wait ends at once).
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the endpoint's `error` text (e.g.
 *   `Internal Server Error`) and `status` on a non-2xx answer; `NETWORK_ERROR` when the endpoint cannot be
 *   reached; `INVALID_PREPARE_RESPONSE` when a 2xx answer lacks the strategy's fields. All after the last
 *   attempt.
 */
export async function prepareUpload<S extends UploadStrategy>(input: PrepareInput<S>): Promise<PreparedUpload[S]> {
  const { answer, status, url } = await postToEndpoint(input, { strategy: input.strategy });
  if (!isPrepared(input.strategy, answer)) {
    const fields = input.strategy === 'presigned' ? '"url", "key", "bucket"' : '"token.Credentials", "key", "bucket", "region"';
    throw new UploadClientError(
      'INVALID_PREPARE_RESPONSE',
      `Upload endpoint ${url} answered without ${fields}: is it an Upbeam handler that offers the ${input.strategy} strategy?`,
      { status },
    );
  }
  return answer;
}

/**
 * Tells a server with a size limit that a temporary-token upload is stored (`_upload.complete` with the
 * preparation answer's `receipt`); the server checks the object's size and deletes it when too large.
 * Retried like {@link prepareUpload} (the check is idempotent).
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the server's message (413 `FILE_TOO_LARGE`).
 */
export async function completeUpload(
  input: PrepareInput<'temporary-token'>,
  complete: { key: string; receipt: string },
): Promise<void> {
  await postToEndpoint(input, { strategy: 'temporary-token', complete });
}
