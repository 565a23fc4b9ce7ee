import type { ChecksumAlgorithm } from './checksum';

// The base of every successful preparation answer: the presigned and temporary-token answers (messages.ts)
// and the multipart `create` answer (multipart.ts) extend it, so both files import it from here.
/** Fields that every successful preparation answer carries. */
export interface PreparedUploadBase {
  /** Object key the file will be stored under. */
  key: string;
  /** Bucket name. */
  bucket: string;
  /** Region of the bucket, e.g. `us-east-1`. */
  region: string;
  /** Custom S3-compatible endpoint (R2, MinIO, ...), when one is configured. */
  endpoint?: string;
  /**
   * The checksum this upload carries to storage (`CHECKSUM_HEADERS`), which storage verifies (refuses a
   * changed byte): the algorithm the request asked for in `_upload.checksum`, else the route's. For a presigned
   * single PUT its value is signed into the URL (the answer's `headers` hold it); for a multipart upload each
   * part's is signed into its part URL (`sign-parts` with `checksums`); with temporary credentials the browser
   * signs it. Absent: no checksum (the route's storage verifies none, or checksums are off).
   */
  checksum?: ChecksumAlgorithm;
  /**
   * `true` when storage refuses to overwrite: the write carries `If-None-Match: *` (signed into a presigned
   * URL's `headers`, and sent by the browser with temporary credentials), so a key is written once. A retried
   * PUT answered 412 `PreconditionFailed` was stored by an earlier attempt: report it complete.
   */
  ifNoneMatch?: true;
  /**
   * `true` when storage already holds these bytes under `key` (a content-addressed route: the key is named
   * from the SHA-256 the request carried, and storage reported that checksum for it): send nothing, report
   * the upload complete with `receipt` (the completion hook is told `deduplicated: true`). No URL, token or
   * multipart upload is in the answer then.
   */
  alreadyStored?: true;
}
