/**
 * Checksums of what the browser sends, verified by storage: the algorithms, the header each travels in, and
 * how a multipart upload's checksum is made from its parts'. Both sides read these; nothing else defines them.
 *
 * Source of the rules: Amazon S3 User Guide, "Checking object integrity in Amazon S3" (additional checksums,
 * full-object and composite checksums of multipart uploads) and the PutObject, UploadPart,
 * CreateMultipartUpload and CompleteMultipartUpload API references.
 */

/**
 * The checksums Upbeam computes in the browser, weakest and cheapest first:
 * - `crc32c`: CRC-32C (Castagnoli), 4 bytes, sent as `x-amz-checksum-crc32c`.
 * - `crc64nvme`: CRC-64/NVME, 8 bytes, sent as `x-amz-checksum-crc64nvme` (S3's default since 2025).
 * - `sha256`: SHA-256, 32 bytes, sent as `x-amz-checksum-sha256`; the only one that names content safely
 *   (a CRC or MD5 collision can be made on purpose), so content-addressed keys use it.
 * - `md5`: MD5, 16 bytes, sent as `Content-MD5` (RFC 1864); the one older S3-compatible stores verify.
 */
export const CHECKSUM_ALGORITHMS = ['crc32c', 'crc64nvme', 'sha256', 'md5'] as const;

/** One of {@link CHECKSUM_ALGORITHMS}. */
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

/**
 * The request header (lower case) that carries a body's checksum to storage, base64 of the digest, on a PUT
 * of the object or of a part. Storage refuses a body that does not match it (400 `BadDigest`, or
 * `InvalidRequest` / `XAmzContentChecksumMismatch` for the `x-amz-checksum-*` ones).
 */
export const CHECKSUM_HEADERS: Readonly<Record<ChecksumAlgorithm, string>> = {
  crc32c: 'x-amz-checksum-crc32c',
  crc64nvme: 'x-amz-checksum-crc64nvme',
  sha256: 'x-amz-checksum-sha256',
  md5: 'content-md5',
};

/** Length of each algorithm's digest, in bytes. */
export const CHECKSUM_DIGEST_BYTES: Readonly<Record<ChecksumAlgorithm, number>> = { crc32c: 4, crc64nvme: 8, sha256: 32, md5: 16 };

/**
 * How a multipart upload's checksum is made from its parts' (S3's `x-amz-checksum-type`):
 * - `full-object`: the checksum of the whole object's bytes, as a single PUT's would be (CRC64NVME: S3 makes
 *   it from the part CRCs; the only type S3 allows for it).
 * - `composite`: the checksum of the parts' digests joined in part order, then `-` and the number of parts
 *   (SHA-256, CRC32C; MD5 is S3's multipart ETag, made the same way).
 */
export const MULTIPART_CHECKSUM_TYPES: Readonly<Record<ChecksumAlgorithm, 'full-object' | 'composite'>> = {
  crc32c: 'composite',
  crc64nvme: 'full-object',
  sha256: 'composite',
  md5: 'composite',
};

/**
 * The checksum a preparation request carries, in `_upload.checksum`: the algorithm the browser will send,
 * and, where it hashed the file before asking (a single PUT; any upload to a content-addressed route), the
 * object's checksum, so that the server signs it into the URL (the URL then accepts those bytes and no
 * others) and names a content-addressed key from it.
 */
export interface ChecksumRequest {
  /** The algorithm of every checksum this upload sends (the object's, or each part's). */
  algorithm: ChecksumAlgorithm;
  /**
   * The object's checksum as storage will report it: base64 of the digest of the whole file for a single PUT
   * (md5 too: a `Content-MD5` value); for a multipart upload to a content-addressed route, its multipart
   * checksum ({@link MULTIPART_CHECKSUM_TYPES}; composite values end in `-{parts}`). Absent when the browser
   * asks before hashing (a multipart upload: its parts are hashed and signed as they go).
   */
  value?: string;
}

/**
 * `code` of the endpoint's refusals about checksums:
 * - `CHECKSUM_REQUIRED` (400): the route wants the file's checksum signed into its URL: hash the file with the
 *   answer's `checksum` algorithm and prepare again with `_upload.checksum`.
 * - `CHECKSUM_UNSUPPORTED` (400): the route's storage does not verify the algorithm asked for (its answer's
 *   `checksum` names the one to use, or is absent when storage verifies none).
 * - `INVALID_CHECKSUM` (400): a checksum value that is not base64 of a digest of the algorithm's length, or a
 *   part's checksum missing from `sign-parts` / `complete` of an upload created with one.
 */
export type ChecksumErrorCode = 'CHECKSUM_REQUIRED' | 'CHECKSUM_UNSUPPORTED' | 'INVALID_CHECKSUM';

/** The checksum of a whole stored object, computed by the client from what it sent, and verified by storage. */
export interface ObjectChecksum {
  /** The algorithm (sent as `CHECKSUM_HEADERS[algorithm]` with the object or each part). */
  algorithm: ChecksumAlgorithm;
  /**
   * `full-object`: the checksum of the whole object's bytes (a single PUT; a CRC64NVME multipart upload);
   * `composite`: the checksum of the parts' digests joined, followed by `-` and the number of parts, as S3
   * defines it for a multipart upload (`MULTIPART_CHECKSUM_TYPES`).
   */
  type: 'full-object' | 'composite';
  /**
   * As storage reports it: MD5 in lowercase hexadecimal (the ETag without quotes, e.g. `"3b4c…9f-3"`); the
   * others in base64 (`x-amz-checksum-*`, `ChecksumCRC32C`, ...), e.g. `"yZRlqg==-3"`. `-N` ends a composite.
   */
  value: string;
}
