import type { UploadErrorBody } from '@upbeam/upload-protocol';
import { createAbortError, onAbort } from './abort';
import { UploadClientError, type UploadClientErrorCode } from './errors';
import { retryAfterIn } from './s3-answer';

/** One request for {@link sendRequest}. */
export interface XhrRequest {
  /**
   * `POST` (the endpoint; CreateMultipartUpload, CompleteMultipartUpload), `PUT` (the file or a part),
   * `GET` (ListParts), `DELETE` (AbortMultipartUpload).
   */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /**
   * A JSON or XML text, or the file or a `Blob.slice()` of it (sent from disk by the browser, never read
   * into memory), or a presigned POST's form (`postForm`: its fields, then the file); `null` for none.
   */
  body: string | Blob | FormData | null;
  signal?: AbortSignal | undefined;
  /** Message of the `NETWORK_ERROR` thrown when no answer comes. */
  noAnswer: string;
  /**
   * Called with the bytes of the body sent so far, as the browser reports them, and the whole body's size (a
   * form's encoded size, boundaries included; 0 when the browser does not know it). Set it only when wanted: an
   * upload listener makes the browser send a CORS preflight before a cross-origin request.
   */
  onProgress?: ((sent: number, total: number) => void) | undefined;
}

/**
 * Sends one request with `XMLHttpRequest`, the one browser API that reports upload progress (`fetch` has
 * no upload progress events). Cookies go with it as with `fetch`: to the page's own origin only.
 *
 * @returns the finished request, whatever its status: read `status`, `responseText` and the headers.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts; {@link UploadClientError}
 *   `NETWORK_ERROR` (`noAnswer`) when no answer came (a connection reset, or a missing CORS rule).
 */
export function sendRequest(request: XhrRequest): Promise<XMLHttpRequest> {
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
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    if (onProgress) xhr.upload.addEventListener('progress', (event) => onProgress(event.loaded, event.total));
    on('load', () => resolve(xhr));
    on('error', () => reject(new UploadClientError('NETWORK_ERROR', request.noAnswer)));
    on('abort', () => reject(createAbortError()));
    xhr.send(request.body);
  });
}

/**
 * The error for a finished request whose answer is not a success (2xx): its `status`, its own error code
 * (`answerCode`) and its `Retry-After` (read from the headers the browser lets the page see, else the
 * endpoint body's `retryAfter` seconds), which the retry policy reads, and the endpoint body's `limit`.
 * `undefined` for a success.
 */
export function refusal(
  xhr: XMLHttpRequest,
  code: UploadClientErrorCode,
  message: string,
  answerCode: string | undefined,
  body: Pick<UploadErrorBody, 'limit' | 'retryAfter'> = {},
): UploadClientError | undefined {
  const { status } = xhr;
  if (status >= 200 && status < 300) return undefined;
  // An endpoint on another origin that does not expose Retry-After still says it in its body.
  const retryAfter = retryAfterIn(xhr.getAllResponseHeaders()) ?? (body.retryAfter === undefined ? undefined : `${body.retryAfter}`);
  return new UploadClientError(code, message, { status, answerCode, retryAfter, limit: body.limit });
}
