import { DEFAULT_UPLOAD_ENDPOINT, type UploadErrorBody, type UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import { refusal, sendRequest } from './http-request';
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

/** The value at a dotted path (`token.Credentials.AccessKeyId`) of a JSON answer. */
const valueAt = (answer: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown> | null | undefined)?.[name], answer);

/**
 * POSTs `{ filename, filetype, filesize, _upload: marker, ...body }` to the preparation endpoint and checks
 * that its answer has `fields` (dotted paths, e.g. `token.Credentials.SessionToken`) as non-empty strings,
 * so that a wrong answer fails here with a clear message, not later. A network error or a 408, 429, 500,
 * 502, 503 or 504 answer is retried (`upload.options.maxAttempts` attempts in all, backoff or the
 * endpoint's `Retry-After`); any other answer is final.
 *
 * @returns the answer's JSON body.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts (a retry wait ends at once).
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the endpoint's `error` text (e.g.
 *   `Internal Server Error`) and `status` on a non-2xx answer; `NETWORK_ERROR` when the endpoint cannot be
 *   reached (both after the last attempt); `INVALID_PREPARE_RESPONSE`, naming the missing fields.
 */
export function postToEndpoint<T>(
  upload: UploadContext,
  marker: UploadRequestBody['_upload'],
  fields: readonly string[] = [],
): Promise<T> {
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
  return withRetries(async () => {
    const xhr = await sendRequest(
      'POST',
      url,
      { ...endpoint?.headers, 'Content-Type': 'application/json' },
      JSON.stringify(body),
      options.signal,
      `No answer from the upload endpoint ${url}.`,
    );
    let answer: Partial<UploadErrorBody> | undefined;
    try {
      answer = JSON.parse(xhr.responseText);
    } catch {
      // Not JSON: a proxy's error page, say.
    }
    const refused = refusal(xhr, 'PREPARE_FAILED', String(answer?.error || `Upload endpoint answered ${xhr.status}.`), answer?.code);
    if (refused) throw refused;
    const missing = fields.filter((path) => {
      const value = valueAt(answer, path);
      return typeof value !== 'string' || !value;
    });
    if (missing.length > 0) {
      throw new UploadClientError('INVALID_PREPARE_RESPONSE', `Upload endpoint ${url} answered without ${missing.join(', ')}.`, {
        status: xhr.status,
      });
    }
    return answer as T;
  }, options);
}
