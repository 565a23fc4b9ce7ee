/**
 * The multipart part of the wire contract: limits both sides apply, the operations the browser asks the
 * endpoint for (presigned multipart upload, fresh temporary credentials), and their answers.
 *
 * Every operation is a POST of the usual preparation body (`filename`, `filetype`, `filesize`, extra fields)
 * to the same endpoint, with the operation in the `_upload` marker. After `create`, the server acts only on
 * the upload named by the `ticket` it issued: an HMAC-signed token that binds the object key, the upload id,
 * the file size and the part size, so that no client can sign parts for, complete or abort another upload.
 */
import type { ObjectChecksum } from './checksum';
import type { PreparedUploadBase } from './prepared-upload';

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
  /**
   * The part's checksum (base64 of its digest) when the upload was created with one other than MD5: S3's
   * CompleteMultipartUpload must list it (`ChecksumCRC32C`, ...). MD5 parts need none (the ETag is theirs).
   */
  checksum?: string;
}

/** A part already on storage, as ListParts reports it (resume). */
export interface StoredPart extends CompletedPart {
  /** Size of the part, in bytes. */
  size: number;
}

/**
 * A presigned multipart operation, sent as `_upload: { strategy: 'presigned', multipart }`.
 * - `create`: CreateMultipartUpload for a new key, with the checksum algorithm of `_upload.checksum` (else the
 *   route's), whose parts then each carry theirs (the body's `filesize` is required, at least 1 byte;
 *   `onBeforeUpload`, `allowedContentTypes` and `maxFileSize` apply as to a single PUT; `partSize` from
 *   {@link MIN_PART_SIZE} to {@link MAX_PART_SIZE}, else 400 `INVALID_REQUEST`; more than {@link MAX_PARTS}
 *   parts: 400 `TOO_MANY_PARTS` `Exceeded 10000 parts in multipart upload`). Content-Type, Cache-Control,
 *   Content-Disposition and metadata are set here, by the server. Answer: {@link MultipartUploadResponse}.
 * - `sign-parts`: UploadPart URLs for the given part numbers (1 to {@link MAX_PARTS_PER_SIGN_REQUEST} of them,
 *   each within the upload's `ceil(filesize / partSize)` parts, else 400). Each URL signs its part's exact
 *   Content-Length (storage answers 403 to any other size) and lives as long as a presigned PUT URL (the
 *   server's `expiresIn`, 3600 s by default): past it, storage answers 403 and the part is signed again.
 *   Answer: {@link SignPartsResponse}.
 * - `list-parts`: the parts storage holds (ListParts, every page), to resume. Answer: {@link ListPartsResponse};
 *   404 `NO_SUCH_UPLOAD` when the upload no longer exists; 501 `NOT_SUPPORTED` when storage has no ListParts
 *   (then send every part again).
 * - `complete`: CompleteMultipartUpload with exactly parts 1 to N, once each (else 400 `INVALID_REQUEST`; an
 *   ETag storage does not hold: 400 `INVALID_PART`). The one body allowed over 16 KiB: up to 1 MiB. Safe to
 *   retry: a retried `complete` whose upload is gone answers the stored object when it has N parts. A server
 *   with a completion hook checks the object and runs the hook in this request (no `_upload.complete`
 *   follows); its answer is the response's `serverData`. Answer: {@link CompleteMultipartResponse}.
 * - `abort`: AbortMultipartUpload; idempotent (an upload already gone is aborted too). Answer:
 *   {@link AbortMultipartResponse}.
 *
 * `onBeforeUpload` runs for `create` only: the later operations are authorized by the ticket alone, valid 24
 * hours. A ticket that was altered, is from another server secret or names another upload: 403
 * `INVALID_TICKET`; past its expiry: 403 `TICKET_EXPIRED` (start again with `create`).
 */
export type MultipartRequest =
  | { action: 'create'; partSize: number }
  | {
      action: 'sign-parts';
      ticket: string;
      partNumbers: number[];
      /**
       * For an upload created with a checksum: each part's (base64 of its digest), in the order of
       * `partNumbers`, signed into its URL (the URL then accepts that part's bytes and no others). Required
       * then (else 400 `INVALID_CHECKSUM`); refused without one.
       */
      checksums?: string[];
    }
  | { action: 'list-parts'; ticket: string }
  | {
      action: 'complete';
      ticket: string;
      parts: CompletedPart[];
      /**
       * For a `full-object` multipart checksum (CRC64NVME): the whole object's checksum (base64), which storage
       * checks against the one it makes from the parts' before it completes.
       */
      checksum?: string;
    }
  | { action: 'abort'; ticket: string };

/** The names of {@link MultipartRequest}'s actions. */
export type MultipartAction = MultipartRequest['action'];

/**
 * `code` of the endpoint's refusals that a multipart upload or a renewal acts on (besides the codes of any
 * preparation: `INVALID_REQUEST`, `UNAUTHORIZED`, `FORBIDDEN`, `FILE_TOO_LARGE`, ...):
 * - `TOO_MANY_PARTS` (400): the file needs more than 10000 parts of this size: choose a larger `partSize`.
 * - `INVALID_PART` (400): a part's ETag is not the stored one: list the parts, send the missing ones again.
 * - `INVALID_TICKET` (403): the ticket was altered or is not this server's: start again.
 * - `TICKET_EXPIRED` (403): the ticket is past its 24 hours: start again.
 * - `NO_SUCH_UPLOAD` (404): storage no longer has the upload (completed or aborted): start again.
 * - `NOT_SUPPORTED` (501): storage cannot list parts: send every part again.
 */
export type MultipartErrorCode =
  | 'TOO_MANY_PARTS'
  | 'INVALID_PART'
  | 'INVALID_TICKET'
  | 'TICKET_EXPIRED'
  | 'NO_SUCH_UPLOAD'
  | 'NOT_SUPPORTED';

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
  /**
   * The first parts' UploadPart requests, signed with the upload (parts 1 to at most
   * {@link MAX_PARTS_PER_SIGN_REQUEST}, as a `sign-parts` answer gives them), so that the first parts start
   * without a `sign-parts` round trip. Absent from servers before it was added: sign them with `sign-parts`.
   */
  parts?: SignedPart[];
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
  /** Every part storage holds, by part number (empty when none was stored yet). */
  parts: StoredPart[];
}

/** Answer to `complete`: the object is stored. */
export interface CompleteMultipartResponse {
  key: string;
  /** The object's ETag, in quotes (S3 and radosgw: `"{md5 of the part MD5s}-{parts}"`; s3rver: a plain MD5). */
  etag: string;
  /** The object's checksum as storage reported it at completion, when the upload was created with one. */
  checksum?: ObjectChecksum;
  /** What the server's completion hook returned (JSON), when it has one and it returned something. */
  serverData?: unknown;
}

/** Answer to `abort`: no part of the upload is left on storage. */
export interface AbortMultipartResponse {
  aborted: true;
}

/**
 * Fresh temporary credentials for an upload already prepared, sent as `_upload: { strategy:
 * 'temporary-token', renew: { ticket } }` before the old ones expire (SPEC 9: refresh window 60 seconds),
 * with the same `filename`, `filetype` and `filesize` as the preparation: `onBeforeUpload` and the type and
 * size checks run again (a signed-out user gets its 401), but the key is the ticket's. Answer: a complete
 * `TemporaryTokenUploadResponse` for the same key, with a new `ticket` (and `receipt`, when the size is
 * limited) that replace the old ones. A ticket that was altered or is not this server's: 403
 * `INVALID_TICKET`; past its 24 hours: 403 `TICKET_EXPIRED`.
 */
export interface RenewRequest {
  /** The `ticket` of the temporary-token answer being renewed. */
  ticket: string;
}
