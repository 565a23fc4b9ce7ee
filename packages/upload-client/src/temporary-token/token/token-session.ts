/**
 * The contract between the part engine and the temporary-token strategy's storage requests: every S3
 * operation the browser makes with temporary credentials, signed in the browser (SigV4, header-signed,
 * `UNSIGNED-PAYLOAD`, so no byte of the file is hashed in JavaScript). The parts of a multipart upload (`multipart-parts`) and
 * the single PUT call these; how they are signed, when the credentials are renewed and how a skewed browser
 * clock is corrected stay inside the session. `createTokenSession` (./create-token-session.ts) makes one.
 */
import type { ChecksumAlgorithm, CompletedPart, StoredPart, TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import type { Recovery } from '../../recovery';
import type { RetryOptions } from '../../retry';
import type { StorageAnswer } from '../../s3-answer';

/** A signed request to send with XHR: `method` to `url` with exactly `headers`. */
export interface SignedRequest {
  url: string;
  /**
   * The headers to send, all signed: `authorization`, `x-amz-date`, `x-amz-security-token`,
   * `x-amz-content-sha256: UNSIGNED-PAYLOAD`, and the object's headers on a PutObject. `host` is signed
   * too but left out: the browser sets it and refuses a page that tries.
   */
  headers: Record<string, string>;
  /**
   * When the signature stops being accepted, in milliseconds since the epoch by this browser's clock: the
   * credentials' expiration or 5 minutes after signing (SPEC 9: clock-skew threshold), whichever comes
   * first, both corrected for clock skew. Past it, sign again.
   */
  expiresAt: number;
}

export type { StorageAnswer } from '../../s3-answer';

/** One request to storage, ready to go: sent as is. */
export interface StorageRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** An XML text (CompleteMultipartUpload, PutObjectTagging); none for the other operations. */
  body?: string | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Sends one request and resolves with the answer, whatever its status.
 * @throws `AbortError` when `signal` aborts; {@link UploadClientError} `NETWORK_ERROR` when no answer came.
 */
export type SendStorageRequest = (request: StorageRequest) => Promise<StorageAnswer>;

/** Options of `createTokenSession`. */
export interface TokenSessionOptions {
  /** The preparation answer of the temporary-token strategy. */
  prepared: TemporaryTokenUploadResponse;
  /**
   * Asks the endpoint for fresh credentials for the same key (`_upload: { strategy: 'temporary-token',
   * renew: { ticket } }`) and resolves with its answer. Called only when the answer in force has a `ticket`
   * (older servers send none: their credentials then last their 3600 seconds).
   */
  renew: (ticket: string) => Promise<TemporaryTokenUploadResponse>;
  /** This browser's clock, in milliseconds since the epoch (tests shift it). @default Date.now */
  now?: () => number;
  /**
   * Retries of the requests the session sends itself (create, complete, abort, list, tagging): as every
   * request of an upload (`maxAttempts` 3, network errors, 408, 429, 5xx, `SlowDown`...).
   */
  retry?: RetryOptions;
  /**
   * How the session sends its own requests. @default `XMLHttpRequest` through `sendRequest` (a browser);
   * pass one built on `fetch` to run in Node.
   */
  send?: SendStorageRequest;
}

/** What a CompleteMultipartUpload sends besides its parts. */
export interface CompleteOptions {
  /**
   * The algorithm the upload was created with (`createMultipartUpload`'s `checksum`): each part's `checksum`
   * (base64) is listed under its element (`<ChecksumCRC32C>`...), which S3 requires then. MD5: none.
   */
  checksum?: ChecksumAlgorithm | undefined;
  /**
   * The whole object's checksum (base64) of a `full-object` upload (CRC64NVME), sent as its
   * `x-amz-checksum-*` header: storage refuses the Complete when the CRC it combines from the parts' differs.
   */
  objectChecksum?: string | undefined;
  /**
   * Sends `If-None-Match: *` (signed): storage refuses (412 `PreconditionFailed`) to complete over an object
   * already under the key (the answer's `ifNoneMatch`).
   */
  ifNoneMatch?: boolean | undefined;
}

/** What CompleteMultipartUpload answered. */
export interface CompletedObject {
  /**
   * The object's ETag, in quotes (as the `ETag` header of a GET); `undefined` when storage did not say:
   * radosgw 16.2 answers the first CompleteMultipartUpload with an empty `<ETag>`, and a retry refused after
   * an attempt that got no answer (`NoSuchUpload`, or 412 with `If-None-Match`) means that attempt completed
   * the upload (the temporary credentials cannot read the object to learn its ETag).
   */
  etag: string | undefined;
  /**
   * The object's checksum as storage reported it (`<ChecksumCRC64NVME>`, or a composite `<ChecksumCRC32C>`
   * ending in `-N`), for an upload created with an algorithm other than MD5; `undefined` when it did not say.
   */
  checksum: string | undefined;
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
   * @throws as the caller's `renew` when the credentials had to be renewed and could not be.
   */
  signPutObject(contentType: string, headers?: Record<string, string>): Promise<SignedRequest>;
  /**
   * CreateMultipartUpload (same headers as PutObject); with `checksum` other than MD5, its
   * `x-amz-checksum-algorithm` and `x-amz-checksum-type` (FULL_OBJECT for CRC64NVME, else COMPOSITE), so that
   * storage verifies each part's checksum and keeps the object's. @returns the upload id.
   */
  createMultipartUpload(contentType: string, signal?: AbortSignal, checksum?: ChecksumAlgorithm): Promise<string>;
  /**
   * A signed UploadPart of `partNumber` (1 to 10000), `headers` (its `Content-MD5` or `x-amz-checksum-*`) signed with it.
   * The caller sends the part's bytes with XHR.
   */
  signUploadPart(uploadId: string, partNumber: number, headers?: Record<string, string>): Promise<SignedRequest>;
  /**
   * ListParts, to resume (every page). `undefined` when the credentials or storage cannot list (403, 405,
   * 501: AWS needs `s3:ListMultipartUploadParts`, s3rver has no ListParts).
   * @throws {@link UploadClientError} `STORAGE_ERROR` with status 404 when the upload no longer exists
   *   (`answerCode` `NoSuchUpload` on AWS; radosgw 16.2 says `NoSuchKey`).
   */
  listParts(uploadId: string, signal?: AbortSignal): Promise<StoredPart[] | undefined>;
  /**
   * CompleteMultipartUpload (a 200 answer holding an `<Error>` is a failure), with the parts' checksums,
   * the object's and `If-None-Match: *` as `options` say. A retry answered `NoSuchUpload` (MinIO; AWS and
   * radosgw answer 200) or 412 after an attempt that got no answer: that attempt completed the upload.
   * @returns the object's ETag and checksum as storage answered them ({@link CompletedObject}).
   * @throws {@link UploadClientError} `STORAGE_ERROR` 412 `PreconditionFailed` "An object already exists
   *   under this key (storage refuses to overwrite it)." with `ifNoneMatch` when the key holds an object.
   */
  completeMultipartUpload(uploadId: string, parts: CompletedPart[], signal?: AbortSignal, options?: CompleteOptions): Promise<CompletedObject>;
  /**
   * AbortMultipartUpload; never cancelled by the user's signal (it is the cleanup of a cancel). An upload
   * already gone (`NoSuchUpload`) counts as aborted.
   */
  abortMultipartUpload(uploadId: string): Promise<void>;
  /** PutObjectTagging, when the caller asked for tags (the server must allow it: `allowObjectTagging`). */
  putObjectTagging(tags: { Key: string; Value: string }[], signal?: AbortSignal): Promise<void>;
  /**
   * For requests the caller sends itself (PutObject, UploadPart): reads a refusal and repairs what signing
   * again can cure.
   * - 403 `RequestTimeTooSkewed`: corrects the session's clock from the answer's `<ServerTime>` (AWS), else
   *   its `Date` header (readable cross-origin only when the bucket's CORS rule exposes it), else from the
   *   `serverTime` of a renewal made before the next signature.
   * - `ExpiredToken`: the credentials are renewed before the next signature.
   * The session's own requests (create, complete, abort, list, tagging) do this themselves: one re-signed
   * retry within the same attempt.
   * @returns `correct-clock` or `renew-credentials` when the caller should sign again and resend at once
   *   (no backoff); `undefined` otherwise (then the refusal is read as usual).
   */
  recoveryFor(answer: StorageAnswer): Recovery | undefined;
}
