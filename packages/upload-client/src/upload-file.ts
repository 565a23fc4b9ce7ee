import { FALLBACK_CONTENT_TYPE, type AnyRoutes, type RouteName, type UploadResult } from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import { goesMultipart, usesMultipart } from './multipart-threshold';
import { createAhead, loadAfterCreate } from './presigned/create-ahead';
import { uploadPresigned } from './presigned/presigned-put';
import { loadPresignedPost } from './presigned-post-chunk';
import { knownChecksum } from './route-checksum';
import { prepareToken } from './temporary-token/prepare-token';
import { throttledProgress } from './progress';
import { resolveRetrySettings } from './retry';
import type { RouteUploadOptions, RouteUploadResult } from './routes';
import type { UploadContext, UploadOptions } from './types';

/**
 * Starts loading the temporary-token or presigned-post strategy's chunk when `options` choose that strategy, so
 * that the first such upload of the page does not wait for it (`UploadTracker` calls it with the options it is given). Loads
 * nothing for `presigned`. A failed load is ignored here: the upload loads it again and fails with its error.
 */
export function preloadStrategy(options: Pick<UploadOptions, 'strategy'>): void {
  if (options.strategy === 'temporary-token') import('./temporary-token/temporary-token').catch(() => {});
  if (options.strategy === 'presigned-post') loadPresignedPost().catch(() => {});
}

/**
 * Starts hashing `file` for its single PUT when its checksum is known before it asks (its option, or its route's
 * as this page learned it), so that the hash overlaps the uploads in flight: the tracker calls it for the next
 * queued file when one starts. Nothing for a multipart file (its parts are hashed as they go) or without a
 * checksum. One file at a time: the digest is kept for the file's own upload. The hashing loads with `import()`
 * (`checksum-ahead.ts`) with the first such file.
 */
export function hashAheadFor(file: File, options: UploadOptions): void {
  const algorithm = knownChecksum({ options });
  // A transformed file is not known before its transform: its upload hashes it.
  if (!algorithm || options.transform || goesMultipart(file.size, options)) return;
  // A failed load is ignored here: the upload hashes the file itself and throws its error.
  import('./checksum-ahead').then(({ hashAhead }) => hashAhead(file, algorithm), () => undefined);
}

/**
 * Uploads one file straight from the browser to S3-compatible storage. The server prepares the upload
 * (presigned URLs, or temporary credentials for one key); the browser then sends the file with progress:
 * one PUT below `multipartThreshold` (default 100 MiB), else a multipart upload, `queueSize` parts at once,
 * each part a `Blob.slice()` sent with `XMLHttpRequest`. No byte of the file is read into JavaScript memory.
 * The multipart engine and the temporary-token and presigned-post strategies are loaded with `import()` on first
 * use, so a page that only sends small files with presigned URLs never downloads them.
 *
 * With `strategy: 'presigned-post'` the file goes in one form POST (S3 POST Object) whose signed policy storage
 * enforces (key, type, size range): one object always, `multipartThreshold` unread; a file over 5 GiB is refused
 * before any request (`INVALID_OPTIONS`, naming the presigned and temporary-token strategies). A file outside the
 * policy's size range fails `STORAGE_ERROR` (400, `answerCode` `EntityTooLarge` / `EntityTooSmall`), not retried.
 *
 * With `transform`, the file sent is `transform(file)`: its size, type, checksum and progress are those of the
 * result (a transform's error is thrown as it is; `signal` aborts the transform too).
 *
 * When the server has a completion hook (its answer holds a `receipt`, or it is a multipart upload), the
 * upload ends with a completion request and the hook's answer is the result's `serverData`.
 *
 * @returns `{ url, bucket, key, serverData? }` of the stored object.
 * @throws `AbortError` DOMException with message `Upload aborted.` when `signal` aborts (at any stage; a
 *   multipart upload is aborted on storage first, unless `leavePartsOnError`).
 * @throws {@link UploadClientError}: `INVALID_OPTIONS` before any request to the endpoint or storage (unknown
 *   strategy, `maxAttempts` under 1, a file over 5 GiB with `presigned-post`; for a file that goes multipart: part size outside 5 MiB to 5 GiB, queue
 *   size under 1, `Exceeded 10000 parts in multipart upload`); `PREPARE_FAILED` with the endpoint's error message (e.g.
 *   `Internal Server Error`); `INVALID_PREPARE_RESPONSE` when the endpoint's answer lacks fields;
 *   `STORAGE_ERROR` when storage refuses; `MISSING_ETAG` when the bucket's CORS rule does not expose ETag;
 *   `NETWORK_ERROR`. Failures that another attempt may cure (network errors, 408, 429, 500, 502, 503, 504,
 *   S3 `SlowDown`, an expired presigned URL) are retried first, `maxAttempts` (default 3) attempts per
 *   request (per part, for a multipart upload). After the last, a multipart upload is aborted on storage,
 *   unless `leavePartsOnError`, or `resume` (then it is kept, to continue when the same file is given again).
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
export function uploadFile<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>(
  file: File,
  // Untyped routes (any string is a route name): the options may be left out; typed: they name the route.
  ...options: string extends RouteName<R> ? [options?: RouteUploadOptions<R, N>] : [options: RouteUploadOptions<R, N>]
): Promise<RouteUploadResult<R, N>>;
export async function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadResult> {
  // Loaded with import() by the first upload with a transform (a page without one pays ~30 B here).
  if (options.transform) ({ file, options } = await (await import('./transform-file')).transformed(file, options));
  const { signal } = options;
  const upload: UploadContext = {
    file,
    filetype: file.type || FALLBACK_CONTENT_TYPE,
    options: resolveRetrySettings(options),
    report: throttledProgress(file.size, options.onProgress),
  };
  if (signal?.aborted) throw createAbortError();
  // Any other strategy goes to the temporary-token module, which refuses what is not `temporary-token`.
  let result: UploadResult;
  if (options.strategy === 'presigned-post') {
    // One object always (no multipart, `multipartThreshold` unread); over 5 GiB refused before any request.
    result = await (await loadPresignedPost()).uploadPresignedPost(upload);
  } else if ((options.strategy ?? 'presigned') !== 'presigned') {
    // A single PUT's credentials are asked for while the strategy's chunk loads (one round trip before the
    // PUT, not two), and first: the app server's answer (STS behind it) takes longer than the chunk. A wrong
    // strategy asks for nothing: the chunk refuses it before any request.
    const singlePut = options.strategy === 'temporary-token' && !usesMultipart(file.size, options.multipartThreshold);
    const [prepared, token] = await Promise.all([singlePut ? prepareToken(upload) : undefined, import('./temporary-token/temporary-token')]);
    result = await token.uploadWithTemporaryToken(upload, prepared);
  } else if (usesMultipart(file.size, options.multipartThreshold)) {
    // The endpoint creates the upload while the multipart chunk loads (the first part waits for one round trip,
    // not for the chunk and then the round trip): sent before the chunk is asked for.
    const ahead = createAhead(upload);
    const multipart = await loadAfterCreate(upload, ahead, () => import('./presigned/presigned-multipart'));
    result = await multipart.uploadPresignedMultipart(upload, ahead);
  } else {
    result = await uploadPresigned(upload);
  }
  upload.report(file.size);
  return result;
}
