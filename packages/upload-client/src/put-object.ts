import { isUploadClientError, NO_ANSWER_MESSAGE } from './errors';
import { sendRequest } from './http-request';
import { withRecovery, type Recovery } from './recovery';
import { isSuccess, storageAnswerOf, storageError, type StorageAnswer } from './s3-answer';

/** A signed PUT (the whole file, or an UploadPart): send the body to `url` with exactly `headers`. */
export interface SignedPut {
  url: string;
  headers: Record<string, string>;
  /** When the signature stops being accepted, in milliseconds since the epoch by this browser's clock. */
  expiresAt: number;
}

/**
 * `headers` with those of `extra` whose names (case aside) it lacks: a checksum header the server did not sign
 * (servers before signed checksums: `Content-MD5` beside the URL), never a second copy of one it signed.
 */
export function addMissingHeaders(headers: Record<string, string>, extra: Record<string, string> | undefined): Record<string, string> {
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  return { ...headers, ...Object.fromEntries(Object.entries(extra ?? {}).filter(([name]) => !names.includes(name.toLowerCase()))) };
}

/**
 * Reads a refusal and repairs what a fresh signature can cure (the temporary-token session: a skewed clock,
 * expired credentials). @returns the recovery, or `undefined` when the answer is not for signing again.
 */
export type AnswerRecovery = (answer: StorageAnswer) => Recovery | undefined;

/**
 * PUTs `body` with `signed` (with `XMLHttpRequest`, for upload progress) and reads the answer: the one
 * reader of a PUT's answer for the single PUT of both strategies and for every part.
 *
 * @param body - The file or a part of it (`Blob.slice()`); sent from disk by the browser, never read into memory.
 * @param onProgress - Called with the bytes sent so far, as the browser reports them.
 * @param recover - Reads a refusal first (the token session); else a refusal of an expired signature is
 *   marked `sign-again` ({@link isExpiredUrlError}).
 * @returns the accepted (2xx) answer.
 * @throws `AbortError` DOMException (`Upload aborted.`) when `signal` aborts.
 * @throws {@link UploadClientError} `STORAGE_ERROR` on a non-2xx answer; `NETWORK_ERROR` when no answer came
 *   (a connection reset, or a CORS rule missing on the bucket, looks like this too); either marked with its
 *   recovery where it is not the default.
 */
export async function putBody(
  signed: SignedPut,
  body: Blob,
  signal: AbortSignal | undefined,
  onProgress: (sent: number) => void,
  recover?: AnswerRecovery,
): Promise<StorageAnswer> {
  let answer: StorageAnswer;
  try {
    const request = { method: 'PUT', url: signed.url, headers: signed.headers, body, signal, noAnswer: NO_ANSWER_MESSAGE, onProgress } as const;
    answer = storageAnswerOf(await sendRequest(request));
  } catch (error) {
    throw isExpiredUrlError(error, signed.expiresAt) ? withRecovery(error as Error, 'sign-again') : error;
  }
  if (isSuccess(answer)) return answer;
  const error = storageError(answer);
  const recovery = recover?.(answer) ?? (isExpiredUrlError(error, signed.expiresAt) ? 'sign-again' : undefined);
  throw recovery ? withRecovery(error, recovery) : error;
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
