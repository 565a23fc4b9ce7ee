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
import { completeUpload, prepareUpload, type PrepareEndpoint } from './prepare';
import { monotonicProgress, type ProgressListener } from './progress';
import { putObject } from './put-object';

/** Options of {@link uploadFile}. The multipart options apply to the temporary-token strategy. */
export interface UploadOptions extends MultipartOptions {
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
 *   `MISSING_ETAG` when the bucket's CORS rule does not expose ETag; `NETWORK_ERROR`.
 *
 * @example
 * const controller = new AbortController();
 * const { url } = await uploadFile(file, {
 *   onProgress: ({ progress }) => (bar.value = progress),
 *   signal: controller.signal,
 * });
 */
export async function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  const { signal } = options;
  const strategy = options.strategy ?? 'presigned';
  if (!UPLOAD_STRATEGIES.includes(strategy)) {
    throw new UploadClientError('INVALID_OPTIONS', `strategy must be one of: ${UPLOAD_STRATEGIES.join(', ')}. Got ${String(strategy)}.`);
  }
  const multipart = strategy === 'temporary-token' ? resolveMultipartSettings(file.size, options) : undefined;
  if (signal?.aborted) throw createAbortError();
  // The AWS SDK chunk starts loading while the server prepares the upload.
  const engine = multipart ? import('./multipart-upload') : undefined;
  engine?.catch(() => {});

  const filetype = file.type || FALLBACK_CONTENT_TYPE;
  const request = { filename: file.name, filetype, filesize: file.size, endpoint: options.endpoint, signal };
  const report = monotonicProgress(file.size, options.onProgress);

  if (!engine || !multipart) {
    const prepared = await prepareUpload({ ...request, strategy: 'presigned' });
    await putObject({
      url: prepared.url,
      body: file,
      // Exactly the signed headers; servers before `headers` existed signed these two.
      headers: prepared.headers ?? { 'Content-Type': filetype, 'Cache-Control': OBJECT_CACHE_CONTROL },
      onProgress: report,
      signal,
    });
    report(file.size);
    return { url: unsignedUrl(prepared.url), bucket: prepared.bucket, key: prepared.key };
  }

  const prepared = await prepareUpload({ ...request, strategy: 'temporary-token' });
  const { uploadMultipart } = await engine;
  await uploadMultipart({ file, filetype, prepared, settings: multipart, onProgress: report, signal });
  // A server with a size limit checks the stored object now (storage cannot bind a size to credentials).
  if (prepared.receipt) {
    await completeUpload({ ...request, strategy: 'temporary-token' }, { key: prepared.key, receipt: prepared.receipt });
  }
  report(file.size);
  return { url: objectUrl(prepared), bucket: prepared.bucket, key: prepared.key };
}
