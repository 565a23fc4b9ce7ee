/**
 * How S3's API names the additional checksums (Amazon S3 API reference: CreateMultipartUpload's
 * `x-amz-checksum-algorithm` and `x-amz-checksum-type`, the `ChecksumCRC32C`... elements of
 * CompleteMultipartUpload's body and answer). MD5 has none of these: it travels in `Content-MD5` and its
 * multipart checksum is the ETag. Loaded with `import()` (a `checksum-*` chunk) by a token multipart upload
 * with one of them only: the token session without a checksum does not carry it.
 */
import { CHECKSUM_HEADERS, MULTIPART_CHECKSUM_TYPES, type ChecksumAlgorithm } from '@upbeam/upload-protocol';

/** An algorithm S3 names in `x-amz-checksum-algorithm` (every one of Upbeam's but MD5). */
export type AdditionalChecksum = Exclude<ChecksumAlgorithm, 'md5'>;

/** S3's names of one additional checksum in a multipart upload's requests. */
export interface S3Checksum {
  /**
   * CreateMultipartUpload's headers: `x-amz-checksum-algorithm` (Upbeam's name in upper case: `CRC32C`,
   * `CRC64NVME`, `SHA256`) and `x-amz-checksum-type` (`FULL_OBJECT` for CRC64NVME, the only type S3 allows
   * it; `COMPOSITE` for the others: `MULTIPART_CHECKSUM_TYPES`).
   */
  createHeaders: Record<string, string>;
  /** The XML element of a part's or the object's checksum: `ChecksumCRC32C`, `ChecksumCRC64NVME`, `ChecksumSHA256`. */
  element: string;
  /** The header of the whole object's value at CompleteMultipartUpload (a full-object one): `CHECKSUM_HEADERS`. */
  header: string;
}

/** S3's names of `algorithm` in a multipart upload's requests. */
export function s3Checksum(algorithm: AdditionalChecksum): S3Checksum {
  const name = algorithm.toUpperCase();
  const type = MULTIPART_CHECKSUM_TYPES[algorithm] === 'full-object' ? 'FULL_OBJECT' : 'COMPOSITE';
  return {
    createHeaders: { 'x-amz-checksum-algorithm': name, 'x-amz-checksum-type': type },
    element: `Checksum${name}`,
    header: CHECKSUM_HEADERS[algorithm],
  };
}
