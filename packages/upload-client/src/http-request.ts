import { createAbortError, onAbort } from './abort';
import { UploadClientError, type UploadClientErrorCode } from './errors';
import { retryAfterIn } from './s3-answer';

/** One HTTP request of the engine: the preparation POST or the presigned PUT. */
export interface HttpRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  /** A JSON text, or the file: sent as a stream by the browser, never read into memory. */
  body: string | Blob;
  signal?: AbortSignal | undefined;
  /**
   * Called with the bytes of the body sent so far, as the browser reports them. Set only when wanted: an
   * upload listener makes the browser send a CORS preflight before a cross-origin request.
   */
  onProgress?: ((sent: number) => void) | undefined;
  /** Read the answer as JSON: `response` is then the parsed body, or null when it is not JSON. */
  json?: boolean;
  /** Message of the `NETWORK_ERROR` thrown when no answer comes. */
  noAnswer: string;
}

/**
 * Sends one request with `XMLHttpRequest`, the one browser API that reports upload progress (`fetch` has
 * no upload progress events). Cookies go with it as with `fetch`: to the page's own origin only.
 *
 * @returns the finished request, whatever its status: read `status`, `responseText` (or `response` with
 *   `json`) and the headers.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts; {@link UploadClientError}
 *   `NETWORK_ERROR` (`noAnswer`) when no answer came (a connection reset, or a missing CORS rule).
 */
export function sendRequest(request: HttpRequest): Promise<XMLHttpRequest> {
  const { signal, onProgress } = request;
  if (signal?.aborted) return Promise.reject(createAbortError());
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const stop = onAbort(signal, () => xhr.abort());
    const on = (type: string, settle: () => void) =>
      xhr.addEventListener(type, () => {
        stop();
        settle();
      });
    xhr.open(request.method, request.url);
    if (request.json) xhr.responseType = 'json';
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.addEventListener('progress', (event) => onProgress(event.loaded));
    on('load', () => resolve(xhr));
    on('error', () => reject(new UploadClientError('NETWORK_ERROR', request.noAnswer)));
    on('abort', () => reject(createAbortError()));
    xhr.send(request.body);
  });
}

/** Whether a finished request was answered with success (2xx). */
export const isSuccess = (xhr: XMLHttpRequest): boolean => xhr.status >= 200 && xhr.status < 300;

/**
 * The error for a refusing answer: its `status`, its own error code (`answerCode`) and its `Retry-After`
 * (read from the headers the browser lets the page see), which the retry policy reads.
 */
export function refusal(
  code: UploadClientErrorCode,
  message: string,
  xhr: XMLHttpRequest,
  answerCode: string | undefined,
): UploadClientError {
  return new UploadClientError(code, message, {
    status: xhr.status,
    answerCode,
    retryAfter: retryAfterIn(xhr.getAllResponseHeaders()),
  });
}
