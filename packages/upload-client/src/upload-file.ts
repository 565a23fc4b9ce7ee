import {
  FALLBACK_CONTENT_TYPE,
  OBJECT_CACHE_CONTROL,
  type PresignedUploadResponse,
  type UploadResult,
  type UploadStrategy,
} from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import type { MultipartOptions } from './multipart-options';
import { postToEndpoint, type PrepareEndpoint } from './prepare';
import { monotonicProgress, type ProgressListener } from './progress';
import { isExpiredUrlError, presignedUrlExpiry, putObject } from './put-object';
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

/** Fields of the presigned answer that the engine reads. */
const PRESIGNED_FIELDS = ['key', 'bucket', 'url'];

/** One upload as the strategies and the endpoint requests see it. */
export interface UploadContext {
  file: File;
  /** Content type sent (and signed): `file.type`, or `application/octet-stream` when the browser has none. */
  filetype: string;
  /** The options, `maxAttempts` resolved (default 3). */
  options: UploadOptions & RetrySettings;
  /** Reports the bytes sent so far (never backwards: see `monotonicProgress`). */
  report: (uploaded: number) => void;
}

/**
 * The presigned strategy: prepare, then PUT the file to the signed URL. A PUT that fails on the network
 * or with a retryable answer is sent again after the backoff (the browser starts the body from byte 0;
 * reported progress holds); a PUT refused because the URL expired is prepared again first, at once.
 * @returns the stored object: the signed URL without its query string (the signature), bucket and key.
 */
async function uploadPresigned(upload: UploadContext): Promise<UploadResult> {
  const { file, options } = upload;
  let prepared: PresignedUploadResponse | undefined;
  let expiresAt = 0;
  let expired = false;
  const { url, bucket, key } = await withRetries(
    async () => {
      expired = false;
      if (!prepared) {
        prepared = await postToEndpoint<PresignedUploadResponse>(upload, { strategy: 'presigned' }, PRESIGNED_FIELDS);
        expiresAt = presignedUrlExpiry(prepared.url);
      }
      try {
        // Exactly the signed headers; servers before `headers` existed signed these two.
        const headers = prepared.headers ?? { 'Content-Type': upload.filetype, 'Cache-Control': OBJECT_CACHE_CONTROL };
        await putObject(prepared.url, headers, file, options.signal, upload.report);
        return prepared;
      } catch (error) {
        expired = isExpiredUrlError(error, expiresAt);
        if (expired) prepared = undefined;
        throw error;
      }
    },
    options,
    // A fresh URL needs no wait; a preparation that failed has used its own attempts already.
    (error, retryNumber) => (expired ? 0 : prepared && retryDelay(error, retryNumber)),
  );
  return { url: url.split('?')[0]!, bucket, key };
}

/**
 * Uploads one file straight from the browser to S3-compatible storage. The server prepares the upload
 * (a presigned PUT URL, or temporary credentials for one key); the browser then sends the file with
 * progress. The file is streamed (presigned) or read one part at a time (multipart), never whole into memory.
 * The temporary-token strategy's code and the AWS SDK are loaded with `import()` on its first use, so an
 * app that only uses presigned URLs never downloads them.
 *
 * @returns `{ url, bucket, key }` of the stored object.
 * @throws `AbortError` DOMException with message `Upload aborted.` when `signal` aborts (at any stage; a
 *   multipart upload is aborted on storage first).
 * @throws {@link UploadClientError}: `INVALID_OPTIONS` before any request to the endpoint or storage (part
 *   size under 5 MiB, queue size under 1, `Exceeded 10000 parts in multipart upload`, unknown strategy,
 *   `maxAttempts` under 1); `PREPARE_FAILED` with the endpoint's error message (e.g. `Internal Server Error`);
 *   `INVALID_PREPARE_RESPONSE` when the endpoint's answer lacks fields; `STORAGE_ERROR` when storage
 *   refuses; `MISSING_ETAG` when the bucket's CORS rule does not expose ETag; `NETWORK_ERROR`. Failures
 *   that another attempt may cure (network errors, 408, 429, 500, 502, 503, 504, S3 `SlowDown`, an expired
 *   presigned URL) are retried first, `maxAttempts` (default 3) attempts per request.
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
  const upload: UploadContext = {
    file,
    filetype: file.type || FALLBACK_CONTENT_TYPE,
    options: resolveRetrySettings(options),
    report: monotonicProgress(file.size, options.onProgress),
  };
  if (signal?.aborted) throw createAbortError();
  // Any other strategy goes to the temporary-token module, which refuses what is not `temporary-token`.
  const result =
    (options.strategy ?? 'presigned') === 'presigned'
      ? await uploadPresigned(upload)
      : await (await import('./temporary-token')).uploadWithTemporaryToken(upload);
  upload.report(file.size);
  return result;
}
