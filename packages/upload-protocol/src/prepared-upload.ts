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
   * `'md5'` when the server wants the browser to send a `Content-MD5` (RFC 1864) with each PUT of the file or
   * of a part: its storage verifies it (refuses a changed byte with 400 `BadDigest`). Absent: no checksum
   * (the server's storage ignores it, or the server predates this field). The client's own `checksum`
   * option, when set, wins. Carried by every preparation answer: presigned, temporary-token (and its renewal),
   * and the presigned multipart `create`.
   */
  checksum?: 'md5';
}
