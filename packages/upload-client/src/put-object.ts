import { createAbortError, isUploadClientError, UploadClientError } from './errors';
import { HttpFailure, isHttpFailure, parseS3Error, retryAfterIn } from './http-failure';

/** One PUT of a whole file to a (presigned) URL. */
export interface PutObjectInput {
  url: string;
  /** The file; sent as a stream by the browser, never read into memory. */
  body: Blob;
  /** Request headers; for a presigned URL exactly the signed ones. */
  headers: Record<string, string>;
  /** Called with the bytes sent so far, as the browser reports them. */
  onProgress?: (uploaded: number) => void;
  signal?: AbortSignal | undefined;
}

/** What storage answered to a successful PUT. */
export interface PutObjectOutput {
  /** The object's ETag, when the bucket's CORS rule exposes it. */
  etag: string | undefined;
}

/**
 * PUTs `body` to `url` with `XMLHttpRequest`, the one browser API that reports upload progress
 * (`fetch` has no upload progress events).
 *
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `STORAGE_ERROR` (with `status` and the S3 error code; `cause` an
 *   `HttpFailure` with the code, message and Retry-After) on a non-2xx answer; `NETWORK_ERROR` when no
 *   answer came (a connection reset, or a CORS rule missing on the bucket, looks like this too).
 */
export function putObject(input: PutObjectInput): Promise<PutObjectOutput> {
  const { signal } = input;
  if (signal?.aborted) return Promise.reject(createAbortError());
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = (fn: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    xhr.open('PUT', input.url);
    for (const [name, value] of Object.entries(input.headers)) xhr.setRequestHeader(name, value);
    if (input.onProgress) {
      const report = input.onProgress;
      xhr.upload.addEventListener('progress', (event) => report(event.loaded));
    }
    xhr.addEventListener('load', () =>
      settle(() => {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve({ etag: xhr.getResponseHeader('ETag') ?? undefined });
          return;
        }
        const { code, message } = parseS3Error(xhr.responseText);
        const answer = new HttpFailure(message || `Storage answered ${xhr.status}.`, {
          status: xhr.status,
          code,
          retryAfter: retryAfterIn(xhr.getAllResponseHeaders()),
        });
        reject(
          new UploadClientError('STORAGE_ERROR', `Storage refused the upload: ${xhr.status}${code ? ` ${code}` : ''}.`, {
            status: xhr.status,
            cause: answer,
          }),
        );
      }),
    );
    xhr.addEventListener('error', () =>
      settle(() =>
        reject(
          new UploadClientError(
            'NETWORK_ERROR',
            'The upload to storage failed without an answer: network down, or the bucket has no CORS rule for this origin.',
          ),
        ),
      ),
    );
    xhr.addEventListener('abort', () => settle(() => reject(createAbortError())));
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(input.body);
  });
}

/** `X-Amz-Date` (`20250102T030405Z`) + `X-Amz-Expires` (seconds) of a presigned URL: when it expires, in ms. */
function presignedUrlExpiry(url: string): number {
  const query = new URL(url, 'http://x').searchParams;
  const date = (query.get('X-Amz-Date') ?? '').replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z');
  // NaN (never expired) when either is missing or unreadable.
  return Date.parse(date) + Number(query.get('X-Amz-Expires') ?? Number.NaN) * 1000;
}

/**
 * Whether a PUT failed because its presigned URL expired, so that a fresh URL can succeed:
 * - a 403 whose S3 message says so (`Request has expired` from S3 and s3rver, `AccessDenied` ... expired);
 * - an `AccessDenied` with no such message (radosgw sends none) while the URL's own `X-Amz-Date` +
 *   `X-Amz-Expires` is past by this browser's clock;
 * - no readable answer (`NETWORK_ERROR`) while the URL is past its expiry: radosgw sends that 403 without
 *   CORS headers, so the page cannot read it, and a retry with the same URL could only fail.
 * Any other 403 (a wrong signature, a refused header, a policy) is not expiry.
 * @param now - The time, in milliseconds since the epoch.
 */
export function isExpiredUrlError(error: unknown, url: string, now: number = Date.now()): boolean {
  if (!isUploadClientError(error)) return false;
  const pastExpiry = now >= presignedUrlExpiry(url);
  if (error.code === 'NETWORK_ERROR') return pastExpiry;
  if (error.status !== 403 || !isHttpFailure(error.cause)) return false;
  const { code, message } = error.cause;
  if (/request has expired/i.test(message) || (code === 'AccessDenied' && /expired/i.test(message))) return true;
  return code === 'AccessDenied' && pastExpiry;
}
