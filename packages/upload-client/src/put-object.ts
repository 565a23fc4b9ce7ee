import { isUploadClientError, NO_ANSWER_MESSAGE, storageRefusalMessage, type UploadClientError } from './errors';
import { refusal, sendRequest } from './http-request';
import { parseS3Error } from './s3-answer';

/**
 * PUTs `body` to `url` (with `XMLHttpRequest`, for upload progress).
 *
 * @param headers - Request headers; for a presigned URL exactly the signed ones.
 * @param body - The file or a part of it (`Blob.slice()`); sent from disk by the browser, never read into memory.
 * @param onProgress - Called with the bytes sent so far, as the browser reports them.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `STORAGE_ERROR` on a non-2xx answer ({@link refusedByStorage});
 *   `NETWORK_ERROR` when no answer came (a connection reset, or a CORS rule missing on the bucket, looks
 *   like this too).
 */
export async function putObject(
  url: string,
  headers: Record<string, string>,
  body: Blob,
  signal: AbortSignal | undefined,
  onProgress?: (uploaded: number) => void,
): Promise<void> {
  const refused = refusedByStorage(await putObjectAnswer(url, headers, body, signal, onProgress));
  if (refused) throw refused;
}

/** As {@link putObject}, but resolves with the finished request whatever its status (read it yourself). */
export function putObjectAnswer(
  url: string,
  headers: Record<string, string>,
  body: Blob,
  signal: AbortSignal | undefined,
  onProgress?: (uploaded: number) => void,
): Promise<XMLHttpRequest> {
  return sendRequest({ method: 'PUT', url, headers, body, signal, noAnswer: NO_ANSWER_MESSAGE, onProgress });
}

/**
 * The `STORAGE_ERROR` of a storage answer that is not a success: `status`, S3's `<Code>` as `answerCode`,
 * `<Message>` in the message, `retryAfter` when readable. `undefined` for a success.
 */
export function refusedByStorage(xhr: XMLHttpRequest): UploadClientError | undefined {
  const { code, message } = parseS3Error(xhr.responseText);
  return refusal(xhr, 'STORAGE_ERROR', storageRefusalMessage(xhr.status, code, message), code);
}

/**
 * When a presigned URL received now expires, by this browser's clock, in milliseconds since the epoch:
 * now + its `X-Amz-Expires` (seconds). Counting from when the URL arrived, not from its `X-Amz-Date`,
 * keeps a browser whose clock is off from taking a valid URL for an expired one. `NaN` (never past) when
 * the URL has no `X-Amz-Expires`.
 */
export function presignedUrlExpiry(url: string, now: number = Date.now()): number {
  return now + Number(/[?&]X-Amz-Expires=(\d+)/.exec(url)?.[1]) * 1000;
}

/**
 * Whether a PUT failed because its presigned URL expired, so that a fresh URL can succeed:
 * - a 403 whose S3 message says so (`Request has expired` from S3, MinIO and s3rver);
 * - any 403 once the URL is past `expiresAt` (what storage says of an expired URL varies; radosgw says
 *   `AccessDenied` and nothing more): a fresh URL costs one POST, and a refusal it does not cure is final;
 * - no readable answer (`NETWORK_ERROR`) once the URL is past `expiresAt`: radosgw sends its 403 without
 *   CORS headers, so the page cannot read it, and a retry with the same URL could only fail.
 * A 403 before then (a wrong signature, a refused header, a policy) is not expiry.
 * @param expiresAt - When the URL expires ({@link presignedUrlExpiry}), in milliseconds since the epoch.
 * @param now - The time, in milliseconds since the epoch.
 */
export function isExpiredUrlError(error: unknown, expiresAt: number, now: number = Date.now()): boolean {
  if (!isUploadClientError(error)) return false;
  const past = now >= expiresAt;
  if (error.code === 'NETWORK_ERROR') return past;
  return error.code === 'STORAGE_ERROR' && error.status === 403 && (past || /expired/i.test(error.message));
}
