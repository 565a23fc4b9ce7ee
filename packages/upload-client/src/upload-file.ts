import {
  FALLBACK_CONTENT_TYPE,
  OBJECT_CACHE_CONTROL,
  UPLOAD_STRATEGIES,
  type UploadResult,
  type UploadStrategy,
} from '@upbeam/upload-protocol';
import { createAbortError, UploadClientError } from './errors';
import { resolveMultipartSettings, type MultipartOptions } from './multipart-options';
import { objectUrl } from './object-url';
import { completeUpload, prepareUpload, type PrepareEndpoint, type PrepareInput } from './prepare';
import { monotonicProgress, type ProgressListener } from './progress';
import { isExpiredUrlError, putObject } from './put-object';
import { resolveRetrySettings, retryDelay, withRetries, type RetryOptions, type RetrySettings } from './retry';

/**
 * Options of {@link uploadFile}. The multipart options apply to the temporary-token strategy; the retry
 * options (`maxAttempts`, default 3; `onRetry`) to every request.
 */
export interface UploadOptions extends MultipartOptions, RetryOptions {
  /**
   * How the server prepares the upload: `presigned` (one PUT to a signed URL) or `temporary-token`
   * (temporary credentials for one object key; multipart upload with `@aws-sdk/lib-storage`, loaded on
   * first use only).
   * @default 'presigned'
   */
  strategy?: UploadStrategy;
  /** The preparation endpoint: URL (default `/api/s3-upload`), extra headers, extra body fields. */
  endpoint?: PrepareEndpoint;
  /** Receives `{ uploaded, size, progress }` (bytes, bytes, percent) as the file is sent; never goes back. */
  onProgress?: ProgressListener;
  /** Cancels the upload; the promise then rejects with an `AbortError` DOMException, `Upload aborted.`. */
  signal?: AbortSignal;
}

/** The stored object's address for the presigned strategy: the signed URL without its query string. */
function unsignedUrl(signedUrl: string): string {
  const url = new URL(signedUrl);
  return `${url.origin}${url.pathname}`;
}

/**
 * The presigned strategy: prepare, then PUT the file to the signed URL. A PUT that fails on the network
 * or with a retryable answer is sent again after the backoff (the browser starts the body from byte 0;
 * reported progress holds); a PUT refused because the URL expired is prepared again first, at once.
 * @returns the preparation answer whose URL stored the file.
 */
async function uploadPresigned(
  file: File,
  request: Omit<PrepareInput<'presigned'>, 'strategy'>,
  report: (uploaded: number) => void,
  retry: RetrySettings,
) {
  let prepared = await prepareUpload({ ...request, strategy: 'presigned' });
  let stale = false;
  let preparing = false;
  await withRetries(
    async () => {
      if (stale) {
        preparing = true;
        prepared = await prepareUpload({ ...request, strategy: 'presigned' });
        preparing = false;
        stale = false;
      }
      try {
        await putObject({
          url: prepared.url,
          body: file,
          // Exactly the signed headers; servers before `headers` existed signed these two.
          headers: prepared.headers ?? { 'Content-Type': request.filetype, 'Cache-Control': OBJECT_CACHE_CONTROL },
          onProgress: report,
          signal: request.signal,
        });
      } catch (error) {
        stale = isExpiredUrlError(error, prepared.url);
        throw error;
      }
    },
    retry,
    request.signal,
    // A new URL needs no wait; a preparation that failed has used its own attempts already.
    (error, retryNumber) => (preparing ? undefined : stale ? 0 : retryDelay(error, retryNumber, retry.random)),
  );
  return prepared;
}

/**
 * Uploads one file straight from the browser to S3-compatible storage. The server prepares the upload
 * (a presigned PUT URL, or temporary credentials for one key); the browser then sends the file with
 * progress. The file is streamed (presigned) or read one part at a time (multipart), never whole into memory.
 *
 * @returns `{ url, bucket, key }` of the stored object.
 * @throws `AbortError` DOMException with message `Upload aborted.` when `signal` aborts (at any stage; a
 *   multipart upload is aborted on storage first).
 * @throws {@link UploadClientError}: `INVALID_OPTIONS` before any network call (part size under 5 MiB,
 *   queue size under 1, `Exceeded 10000 parts in multipart upload`, unknown strategy); `PREPARE_FAILED`
 *   with the endpoint's error message (e.g. `Internal Server Error`); `STORAGE_ERROR` when storage refuses;
 *   `MISSING_ETAG` when the bucket's CORS rule does not expose ETag; `NETWORK_ERROR`. Failures that another
 *   attempt may cure (network errors, 408, 429, 500, 502, 503, 504, S3 `SlowDown`, an expired presigned
 *   URL) are retried first, `maxAttempts` (default 3) attempts per request.
 *
 * @example
 * const controller = new AbortController();
 * const { url } = await uploadFile(file, {
 *   onProgress: ({ progress }) => (bar.value = progress),
 *   signal: controller.signal,
 *   maxAttempts: 5,
 *   onRetry: ({ attempt, delayMs }) => console.warn(`attempt ${attempt} in ${delayMs} ms`),
 * });
 */
export async function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  const { signal } = options;
  const strategy = options.strategy ?? 'presigned';
  if (!UPLOAD_STRATEGIES.includes(strategy)) {
    throw new UploadClientError('INVALID_OPTIONS', `strategy must be one of: ${UPLOAD_STRATEGIES.join(', ')}. Got ${String(strategy)}.`);
  }
  const multipart = strategy === 'temporary-token' ? resolveMultipartSettings(file.size, options) : undefined;
  const retry = resolveRetrySettings(options);
  if (signal?.aborted) throw createAbortError();
  // The AWS SDK chunk starts loading while the server prepares the upload.
  const engine = multipart ? import('./multipart-upload') : undefined;
  engine?.catch(() => {});

  const filetype = file.type || FALLBACK_CONTENT_TYPE;
  const request = { filename: file.name, filetype, filesize: file.size, endpoint: options.endpoint, signal, retry };
  const report = monotonicProgress(file.size, options.onProgress);

  if (!engine || !multipart) {
    const prepared = await uploadPresigned(file, request, report, retry);
    report(file.size);
    return { url: unsignedUrl(prepared.url), bucket: prepared.bucket, key: prepared.key };
  }

  const prepared = await prepareUpload({ ...request, strategy: 'temporary-token' });
  const { uploadMultipart } = await engine;
  await uploadMultipart({ file, filetype, prepared, settings: multipart, retry, onProgress: report, signal });
  // A server with a size limit checks the stored object now (storage cannot bind a size to credentials).
  if (prepared.receipt) {
    await completeUpload({ ...request, strategy: 'temporary-token' }, { key: prepared.key, receipt: prepared.receipt });
  }
  report(file.size);
  return { url: objectUrl(prepared), bucket: prepared.bucket, key: prepared.key };
}
