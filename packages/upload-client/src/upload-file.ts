import { FALLBACK_CONTENT_TYPE, OBJECT_CACHE_CONTROL, type PresignedUploadResponse, type UploadResult } from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import { reportCompletion } from './complete-upload';
import { usesMultipart } from './multipart-threshold';
import { postToEndpoint } from './prepare';
import { throttledProgress } from './progress';
import { presignedUrlExpiry } from './put-object';
import { resolveRetrySettings } from './retry';
import { putWholeFile } from './single-put';
import { singlePutChecksum, type SinglePutChecksum } from './single-put-checksum';
import type { UploadContext, UploadOptions } from './types';

/** Fields of the presigned answer that the engine reads. */
const PRESIGNED_FIELDS = ['key', 'bucket', 'url'];

/**
 * The presigned strategy: prepare, then PUT the file to the signed URL (the send loop of `single-put`). A
 * PUT that fails on the network or with a retryable answer is sent again after the backoff (the browser
 * starts the body from byte 0); a PUT refused because the URL expired is prepared again first, at once.
 * The file is hashed once, after the first answer, when the option or the answer asks for a checksum.
 * Then, when the answer held a `receipt`, reports completion to the server (its hook's `serverData`).
 * @returns the stored object: the signed URL without its query string (the signature), bucket, key,
 *   `checksum` when one was sent, and `serverData` when the server's hook returned some.
 */
async function uploadPresigned(upload: UploadContext): Promise<UploadResult> {
  const { file, options } = upload;
  let prepared: PresignedUploadResponse | undefined;
  let expiresAt = 0;
  let hashed: SinglePutChecksum | undefined;
  await putWholeFile(upload, async (fresh) => {
    if (!prepared || fresh) {
      prepared = await postToEndpoint<PresignedUploadResponse>(upload, { marker: { strategy: 'presigned' }, fields: PRESIGNED_FIELDS });
      expiresAt = presignedUrlExpiry(prepared.url);
    }
    // The option wins (`false` too); unset, the server's answer decides (old servers ask for none).
    hashed ??= await singlePutChecksum(file, options.checksum ?? prepared.checksum);
    // Exactly the signed headers; servers before `headers` existed signed these two.
    const signed = prepared.headers ?? { 'Content-Type': upload.filetype, 'Cache-Control': OBJECT_CACHE_CONTROL };
    // Content-MD5 is not an x-amz-* header: storage takes it unsigned beside a presigned URL, and verifies it.
    return { url: prepared.url, headers: { ...signed, ...hashed.headers }, expiresAt };
  });
  const { url, bucket, key, receipt } = prepared!;
  const checksum = hashed?.checksum;
  return reportCompletion(upload, 'presigned', receipt, { url: url.split('?')[0]!, bucket, key, ...(checksum && { checksum }) });
}

/**
 * Uploads one file straight from the browser to S3-compatible storage. The server prepares the upload
 * (presigned URLs, or temporary credentials for one key); the browser then sends the file with progress:
 * one PUT below `multipartThreshold` (default 100 MiB), else a multipart upload, `queueSize` parts at once,
 * each part a `Blob.slice()` sent with `XMLHttpRequest`. No byte of the file is read into JavaScript memory.
 * The multipart engine and the temporary-token strategy are loaded with `import()` on first use, so a
 * page that only sends small files with presigned URLs never downloads them.
 *
 * When the server has a completion hook (its answer holds a `receipt`, or it is a multipart upload), the
 * upload ends with a completion request and the hook's answer is the result's `serverData`.
 *
 * @returns `{ url, bucket, key, serverData? }` of the stored object.
 * @throws `AbortError` DOMException with message `Upload aborted.` when `signal` aborts (at any stage; a
 *   multipart upload is aborted on storage first, unless `leavePartsOnError`).
 * @throws {@link UploadClientError}: `INVALID_OPTIONS` before any request to the endpoint or storage (part
 *   size outside 5 MiB to 5 GiB, queue size under 1, `Exceeded 10000 parts in multipart upload`, unknown
 *   strategy, `maxAttempts` under 1); `PREPARE_FAILED` with the endpoint's error message (e.g.
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
export async function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadResult> {
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
  if ((options.strategy ?? 'presigned') !== 'presigned') {
    result = await (await import('./temporary-token')).uploadWithTemporaryToken(upload);
  } else if (usesMultipart(file.size, options.multipartThreshold)) {
    result = await (await import('./presigned-multipart')).uploadPresignedMultipart(upload);
  } else {
    result = await uploadPresigned(upload);
  }
  upload.report(file.size);
  return result;
}
