import { FALLBACK_CONTENT_TYPE, OBJECT_CACHE_CONTROL, type UploadResult, type UploadStrategy } from '@upbeam/upload-protocol';
import { createAbortError } from './errors';
import { preparePresignedUpload, type PrepareEndpoint } from './prepare';
import { monotonicProgress, type ProgressListener } from './progress';
import { putObject } from './put-object';

/** Options of {@link uploadFile}. */
export interface UploadOptions {
  /**
   * How the server prepares the upload: `presigned` (one PUT to a signed URL) or `temporary-token`
   * (temporary credentials for one object key; multipart upload).
   * @default 'presigned'
   */
  strategy?: UploadStrategy;
  /** The preparation endpoint: URL (default `/api/s3-upload`), extra headers, extra body fields. */
  endpoint?: PrepareEndpoint;
  /** Receives `{ uploaded, size, progress }` (bytes, bytes, percent) as the file is sent. */
  onProgress?: ProgressListener;
  /** Cancels the upload; the promise then rejects with an `AbortError` DOMException, `Upload aborted.`. */
  signal?: AbortSignal;
}

/** The stored object's address: the signed URL without its query string (signature, expiry). */
function objectUrl(signedUrl: string): string {
  const url = new URL(signedUrl);
  return `${url.origin}${url.pathname}`;
}

/**
 * Uploads one file straight from the browser to S3-compatible storage: asks the preparation endpoint
 * for a presigned PUT URL, then PUTs the file to it with progress. The file is streamed by the browser,
 * never read into memory.
 *
 * @returns `{ url, bucket, key }` of the stored object.
 * @throws `AbortError` DOMException with message `Upload aborted.` when `signal` aborts (at any stage).
 * @throws {@link UploadClientError}: `PREPARE_FAILED` with the endpoint's error message (e.g.
 *   `Internal Server Error`), `STORAGE_ERROR` when storage refuses the PUT, `NETWORK_ERROR` when either
 *   cannot be reached.
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
  if (signal?.aborted) throw createAbortError();
  const filetype = file.type || FALLBACK_CONTENT_TYPE;
  const prepared = await preparePresignedUpload({
    filename: file.name,
    filetype,
    strategy: 'presigned',
    endpoint: options.endpoint,
    signal,
  });
  const report = monotonicProgress(file.size, options.onProgress);
  await putObject({
    url: prepared.url,
    body: file,
    headers: { 'Content-Type': filetype, 'Cache-Control': OBJECT_CACHE_CONTROL },
    onProgress: report,
    signal,
  });
  report(file.size);
  return { url: objectUrl(prepared.url), bucket: prepared.bucket, key: prepared.key };
}
