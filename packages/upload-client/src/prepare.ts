import { DEFAULT_UPLOAD_ENDPOINT, type UploadErrorBody, type UploadMarker, type UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import { refusal, sendRequest } from './http-request';
import { learnChecksum } from './route-checksum';
import type { RetryListener } from './retry';
import { withRetries } from './send-loop';
import type { UploadContext } from './types';

/** One call of the preparation endpoint, for {@link postToEndpoint}. */
export interface EndpointCall {
  /** The `_upload` marker: the strategy, and the operation when it is not a plain preparation. */
  marker: UploadMarker;
  /** Dotted paths (`token.Credentials.SessionToken`) the answer must hold as non-empty strings. */
  fields?: readonly string[];
  /**
   * Cancels the call; when the property is absent, the upload's own signal. The abort of a cancelled upload
   * passes `undefined`, so that it still reaches the server.
   */
  signal?: AbortSignal | undefined;
  /** Hears of each retry of this call (after the upload's own `onRetry`). */
  onRetry?: RetryListener;
}

/** The value at a dotted path (`token.Credentials.AccessKeyId`) of a JSON answer. */
const valueAt = (answer: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((value, name) => (value as Record<string, unknown> | null | undefined)?.[name], answer);

/**
 * The JSON body of a call of the preparation endpoint: the `endpoint.body` fields, `route`, `tags`, `filename`,
 * `filetype`, `filesize` and the `_upload` marker (the background service worker's completion report too).
 */
export function endpointBody({ file, filetype, options }: UploadContext, marker: UploadMarker): UploadRequestBody {
  return {
    ...options.endpoint?.body,
    ...(options.route === undefined ? {} : { route: options.route }),
    // Signed into a presigned PUT by the server (which must allow them); set after upload with a token.
    ...(options.tags === undefined ? {} : { tags: options.tags }),
    filename: options.filename ?? file.name,
    filetype,
    filesize: file.size,
    _upload: marker,
  };
}

/**
 * POSTs `{ filename, filetype, filesize, _upload: marker, route?, ...body }` to the preparation endpoint and checks
 * that its answer has `fields`, so that a wrong answer fails here with a clear message, not later. A network
 * error or a 408, 429, 500, 502, 503 or 504 answer is retried (`upload.options.maxAttempts` attempts in all,
 * backoff or the endpoint's `Retry-After`); any other answer is final.
 *
 * @returns the answer's JSON body.
 * @throws `AbortError` DOMException (`Upload aborted.`) when the signal aborts (a retry wait ends at once).
 * @throws {@link UploadClientError} `PREPARE_FAILED` with the endpoint's `error` text (e.g.
 *   `Internal Server Error`), `status` and `code` (as `answerCode`) on a non-2xx answer; `NETWORK_ERROR` when
 *   the endpoint cannot be reached (both after the last attempt); `INVALID_PREPARE_RESPONSE`, naming the
 *   missing fields.
 */
export function postToEndpoint<T>(upload: UploadContext, call: EndpointCall): Promise<T> {
  const { options } = upload;
  const { endpoint } = options;
  const { fields = [] } = call;
  const signal = 'signal' in call ? call.signal : options.signal;
  const url = endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT;
  const body = endpointBody(upload, call.marker);
  const onRetry: RetryListener = (event) => {
    options.onRetry?.(event);
    call.onRetry?.(event);
  };
  return withRetries(
    async () => {
      const xhr = await sendRequest({
        method: 'POST',
        url,
        headers: { ...endpoint?.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal,
        noAnswer: `No answer from the upload endpoint ${url}.`,
      });
      let answer: Partial<UploadErrorBody> | undefined;
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: a proxy's error page, say.
      }
      const refused = refusal(xhr, 'PREPARE_FAILED', String(answer?.error || `Upload endpoint answered ${xhr.status}.`), answer?.code, {
        limit: answer?.limit,
        retryAfter: answer?.retryAfter,
      });
      // CHECKSUM_REQUIRED / CHECKSUM_UNSUPPORTED name the route's algorithm: known for the next attempt.
      if (refused && answer && 'checksum' in answer) learnChecksum(upload, answer.checksum, true);
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
    },
    { ...options, signal, onRetry },
  );
}
