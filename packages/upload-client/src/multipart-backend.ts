/**
 * What the part engine asks of a strategy: the storage requests of one multipart upload that already
 * exists (its upload id known). Two implementations: `presigned-backend` (the preparation endpoint signs,
 * completes and aborts) and `token-backend` (the browser signs with temporary credentials).
 */
import type { CompletedPart, ObjectChecksum } from '@upbeam/upload-protocol';
import { isUploadClientError } from './errors';
import type { AnswerRecovery, SignedPut } from './put-object';
import { attemptWatch, type AttemptWatch } from './recovery';

/** A signed UploadPart: PUT the part's bytes to `url` with exactly `headers`. */
export interface SignedPartRequest extends SignedPut {
  partNumber: number;
}

/** Request headers of some parts, by part number. */
export type PartHeaders = Readonly<Record<number, Record<string, string>>>;

/** The storage requests of one multipart upload, as the part engine uses them. */
export interface MultipartBackend {
  /** Most parts {@link MultipartBackend.signParts} signs in one call (1 when signing is local and cheap). */
  readonly signBatchSize: number;
  /**
   * Signs UploadPart requests for these part numbers (at most `signBatchSize`). Retries are the backend's:
   * a failure thrown here is final for the part. `headers`, by part number: each part's checksum header (with
   * a checksum, one for every part asked), signed with the part: in its signature (the token backend), or
   * sent to the server that signs it into the URL and returns it in the part's `headers` (presigned).
   */
  signParts(partNumbers: number[], signal: AbortSignal, headers?: PartHeaders): Promise<SignedPartRequest[]>;
  /**
   * CompleteMultipartUpload with every part (with a checksum other than MD5, each part's `checksum`), retried on
   * the upload's policy. A retry answered "no such upload" after an attempt that got no answer counts as done:
   * storage completed it the first time.
   * @param checksum - The object's checksum as the client made it from the parts' (with a checksum); its
   *   value goes with the request for a `full-object` one (CRC-64/NVME), which storage checks.
   * @returns the object's checksum as storage reported it, when the backend knows it.
   */
  complete(parts: CompletedPart[], signal: AbortSignal | undefined, checksum?: ObjectChecksum): Promise<ObjectChecksum | undefined | void>;
  /** AbortMultipartUpload: no part stays on storage. Never cancelled (it is the cleanup of a cancel). */
  abort(): Promise<void>;
  /**
   * Reads a part's refused answer first and repairs what signing again cures (the token session: a skewed
   * clock, expired credentials). @returns the recovery, or `undefined` to read the refusal as usual.
   */
  recoveryFor?: AnswerRecovery;
}

/** Whether `error` says the multipart upload no longer exists (S3 `NoSuchUpload`, the endpoint's `NO_SUCH_UPLOAD`). */
export function isNoSuchUpload(error: unknown): boolean {
  return isUploadClientError(error) && error.status === 404 && (error.answerCode === 'NoSuchUpload' || error.answerCode === 'NO_SUCH_UPLOAD');
}

/**
 * The {@link AttemptWatch} of a CompleteMultipartUpload: after an attempt that got no answer, a retry that finds
 * no such upload (or, with `ifNoneMatch`, a 412: the object it stored) means that attempt completed the upload.
 */
export const completionWatch = (ifNoneMatch = false): AttemptWatch => attemptWatch(ifNoneMatch, isNoSuchUpload);
