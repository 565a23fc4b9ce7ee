/**
 * The contract between the part engine and the temporary-token strategy's storage requests: every S3
 * operation the browser makes with temporary credentials, signed in the browser (SigV4, header-signed,
 * `UNSIGNED-PAYLOAD`, so no byte of the file is hashed in JavaScript). The engine (`multipart-engine`) and
 * the single PUT call these; how they are signed, when the credentials are renewed and how a skewed browser
 * clock is corrected stay inside the session.
 *
 * Lead's sketch, to be implemented by `createTokenSession` in this folder: refine the shapes if needed, keep
 * the names.
 */
import type { CompletedPart, StoredPart, TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';

/** A signed request to send with XHR: `method` to `url` with exactly `headers`. */
export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
  /**
   * When the signature stops being accepted, in milliseconds since the epoch by this browser's clock (the
   * credentials' expiration, corrected for clock skew). Past it, sign again.
   */
  expiresAt: number;
}

/** Storage requests of one temporary-token upload (one object key), with credentials kept fresh. */
export interface TokenSession {
  /** The preparation answer in force (renewed credentials replace it). */
  readonly prepared: TemporaryTokenUploadResponse;
  /** Address of the stored object, no query string: `{endpoint}/{bucket}/{key}` or virtual-host style. */
  readonly objectUrl: string;
  /**
   * A signed PutObject of the whole file (Content-Type, Cache-Control `max-age=630720000, public`,
   * Content-Disposition and `x-amz-meta-*` from the answer). The caller sends the body with XHR.
   */
  signPutObject(contentType: string): Promise<SignedRequest>;
  /** CreateMultipartUpload (same headers as PutObject). @returns the upload id. */
  createMultipartUpload(contentType: string, signal?: AbortSignal): Promise<string>;
  /** A signed UploadPart of `partNumber` (1 to 10000). The caller sends the part's bytes with XHR. */
  signUploadPart(uploadId: string, partNumber: number): Promise<SignedRequest>;
  /** ListParts, to resume; `undefined` when the credentials or storage cannot list. @throws NoSuchUpload as `STORAGE_ERROR` 404 */
  listParts(uploadId: string, signal?: AbortSignal): Promise<StoredPart[] | undefined>;
  /** CompleteMultipartUpload (a 200 answer holding an `<Error>` is a failure). @returns the object's ETag. */
  completeMultipartUpload(uploadId: string, parts: CompletedPart[], signal?: AbortSignal): Promise<string>;
  /** AbortMultipartUpload; never cancelled by the user's signal (it is the cleanup of a cancel). */
  abortMultipartUpload(uploadId: string): Promise<void>;
  /** PutObjectTagging, when the caller asked for tags (the server must allow it: `allowObjectTagging`). */
  putObjectTagging(tags: { Key: string; Value: string }[], signal?: AbortSignal): Promise<void>;
}
