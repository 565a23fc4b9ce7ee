/**
 * The multipart part of the wire contract: limits both sides apply, the operations the browser asks the
 * endpoint for (presigned multipart upload, fresh temporary credentials), and their answers.
 *
 * Every operation is a POST of the usual preparation body (`filename`, `filetype`, `filesize`, extra fields)
 * to the same endpoint, with the operation in the `_upload` marker. After `create`, the server acts only on
 * the upload named by the `ticket` it issued: an HMAC-signed token that binds the object key, the upload id,
 * the file size and the part size, so that no client can sign parts for, complete or abort another upload.
 */
import type { PreparedUploadBase } from './messages';

/**
 * Smallest part of a multipart upload, in bytes (5 MiB). S3 rejects smaller parts, except the last:
 * CompleteMultipartUpload answers `EntityTooSmall`.
 */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

/** Largest part of a multipart upload, in bytes (5 GiB, S3 UploadPart limit). */
export const MAX_PART_SIZE = 5 * 1024 ** 3;

/** Most parts one multipart upload may have (S3 limit; UploadPart `partNumber` is 1 to 10000). */
export const MAX_PARTS = 10_000;

/** Largest object one PUT may store, in bytes (5 GiB, S3 PutObject limit): larger files go multipart. */
export const MAX_SINGLE_PUT_SIZE = 5 * 1024 ** 3;

/** Largest object S3 stores, in bytes (5 TiB). */
export const MAX_OBJECT_SIZE = 5 * 1024 ** 4;

/** Most part URLs one `sign-parts` request may ask for (a batch; the client asks again for more). */
export const MAX_PARTS_PER_SIGN_REQUEST = 100;

/** One part as stored: its number (1 to 10000) and the ETag storage answered its UploadPart with. */
export interface CompletedPart {
  partNumber: number;
  /** The part's ETag exactly as storage sent it, quotes included. */
  etag: string;
}

/** A part already on storage, as ListParts reports it (resume). */
export interface StoredPart extends CompletedPart {
  /** Size of the part, in bytes. */
  size: number;
}

/**
 * A presigned multipart operation, sent as `_upload: { strategy: 'presigned', multipart }`.
 * - `create`: CreateMultipartUpload for a new key (the body's `filesize` is required; `onBeforeUpload`,
 *   `allowedContentTypes` and `maxFileSize` apply as to a single PUT). Answer: {@link MultipartUploadResponse}.
 * - `sign-parts`: UploadPart URLs for the given part numbers (at most {@link MAX_PARTS_PER_SIGN_REQUEST}).
 *   Answer: {@link SignPartsResponse}.
 * - `list-parts`: the parts storage holds (ListParts), to resume. Answer: {@link ListPartsResponse}; 404
 *   `NO_SUCH_UPLOAD` when the upload no longer exists; 501 `NOT_SUPPORTED` when storage has no ListParts.
 * - `complete`: CompleteMultipartUpload with every part. Answer: {@link CompleteMultipartResponse}.
 * - `abort`: AbortMultipartUpload. Answer: {@link AbortMultipartResponse}.
 */
export type MultipartRequest =
  | { action: 'create'; partSize: number }
  | { action: 'sign-parts'; ticket: string; partNumbers: number[] }
  | { action: 'list-parts'; ticket: string }
  | { action: 'complete'; ticket: string; parts: CompletedPart[] }
  | { action: 'abort'; ticket: string };

/** The names of {@link MultipartRequest}'s actions. */
export type MultipartAction = MultipartRequest['action'];

/** Answer to `create`: the multipart upload exists on storage. */
export interface MultipartUploadResponse extends PreparedUploadBase {
  /** Storage's id of the multipart upload. */
  uploadId: string;
  /** Part size the upload was created for, in bytes (every part but the last has exactly this size). */
  partSize: number;
  /**
   * Sent back with every later operation of this upload. Opaque to the browser; the server checks its
   * signature and its expiry (`ticketExpiresAt`).
   */
  ticket: string;
  /** When the ticket stops being accepted (ISO 8601): after it the upload cannot be resumed. */
  ticketExpiresAt: string;
}

/** A presigned UploadPart request: PUT the part's bytes to `url` with exactly `headers`. */
export interface SignedPart {
  partNumber: number;
  url: string;
  /** Headers the PUT must carry, exactly as given (signed); none when empty. */
  headers?: Record<string, string>;
}

/** Answer to `sign-parts`. */
export interface SignPartsResponse {
  parts: SignedPart[];
}

/** Answer to `list-parts`. */
export interface ListPartsResponse {
  parts: StoredPart[];
}

/** Answer to `complete`: the object is stored. */
export interface CompleteMultipartResponse {
  key: string;
  /** The object's ETag as storage answered (a multipart ETag ends in `-{parts}`). */
  etag: string;
}

/** Answer to `abort`: no part of the upload is left on storage. */
export interface AbortMultipartResponse {
  aborted: true;
}

/**
 * Fresh temporary credentials for an upload already prepared, sent as `_upload: { strategy:
 * 'temporary-token', renew: { ticket } }` before the old ones expire (SPEC 9: refresh window 60 seconds).
 * Answer: a `TemporaryTokenUploadResponse` for the same key.
 */
export interface RenewRequest {
  /** The `ticket` of the temporary-token answer being renewed. */
  ticket: string;
}
