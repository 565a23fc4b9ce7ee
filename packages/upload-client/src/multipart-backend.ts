/**
 * What the part engine asks of a strategy: the storage requests of one multipart upload that already
 * exists (its upload id known). Two implementations: `presigned-backend` (the preparation endpoint signs,
 * completes and aborts) and `token-backend` (the browser signs with temporary credentials).
 */
import type { CompletedPart } from '@upbeam/upload-protocol';
import type { RetryListener } from './retry';

/** A signed UploadPart: PUT the part's bytes to `url` with exactly `headers`. */
export interface SignedPartRequest {
  partNumber: number;
  url: string;
  headers: Record<string, string>;
  /** When the signature stops being accepted, in milliseconds since the epoch by this browser's clock. */
  expiresAt: number;
}

/** Request headers of some parts, by part number. */
export type PartHeaders = Readonly<Record<number, Record<string, string>>>;

/** The storage requests of one multipart upload, as the part engine uses them. */
export interface MultipartBackend {
  /** Most parts {@link MultipartBackend.signParts} signs in one call (1 when signing is local and cheap). */
  readonly signBatchSize: number;
  /**
   * Signs UploadPart requests for these part numbers (at most `signBatchSize`). Retries are the backend's:
   * a failure thrown here is final for the part. `headers`, by part number (its `Content-MD5`), are signed
   * with the part where the signature is in headers (the token backend); a presigned URL is signed in its
   * query, and storage takes `Content-MD5` beside it unsigned.
   */
  signParts(partNumbers: number[], signal: AbortSignal, headers?: PartHeaders): Promise<SignedPartRequest[]>;
  /**
   * CompleteMultipartUpload with every part, retried on the upload's policy. A retry answered "no such upload"
   * after an attempt that got no answer counts as done: storage completed it the first time.
   */
  complete(parts: CompletedPart[], signal: AbortSignal | undefined): Promise<void>;
  /** AbortMultipartUpload: no part stays on storage. Never cancelled (it is the cleanup of a cancel). */
  abort(): Promise<void>;
  /**
   * Reads a part's refused answer and repairs what signing again cures (a skewed clock, expired
   * credentials). @returns true when the part should be signed again and sent at once.
   */
  recoverFrom?(answer: RefusedAnswer): boolean;
}

/** A refused answer as the page can read it: status, body, and the raw header block it may see. */
export interface RefusedAnswer {
  status: number;
  body: string;
  headers: string;
}

/** Whether `error` says the multipart upload no longer exists (S3 `NoSuchUpload`, the endpoint's `NO_SUCH_UPLOAD`). */
export function isNoSuchUpload(error: unknown): boolean {
  const { status, answerCode } = (error ?? {}) as { status?: number; answerCode?: string };
  return status === 404 && (answerCode === 'NoSuchUpload' || answerCode === 'NO_SUCH_UPLOAD');
}

/**
 * A retry listener that notes whether an attempt got no answer, and the check that a later "no such upload"
 * means the unanswered attempt had completed the upload.
 */
export function completionWatch(): { onRetry: RetryListener; completedBefore(error: unknown): boolean } {
  let unanswered = false;
  return {
    onRetry: ({ error }) => {
      unanswered ||= (error as { code?: unknown } | null)?.code === 'NETWORK_ERROR';
    },
    completedBefore: (error) => unanswered && isNoSuchUpload(error),
  };
}
