/**
 * How S3's API names the additional checksums (Amazon S3 API reference: CreateMultipartUpload's
 * `x-amz-checksum-algorithm` and `x-amz-checksum-type`, the `ChecksumCRC32C`... elements of
 * CompleteMultipartUpload's body and answer). MD5 has none of these: it travels in `Content-MD5` and its
 * multipart checksum is the ETag.
 */
import { MULTIPART_CHECKSUM_TYPES, type ChecksumAlgorithm } from '@upbeam/upload-protocol';

/** An algorithm S3 names in `x-amz-checksum-algorithm` (every one of Upbeam's but MD5). */
export type AdditionalChecksum = Exclude<ChecksumAlgorithm, 'md5'>;

/**
 * S3's name of an algorithm: the value of `x-amz-checksum-algorithm`, and `Checksum{name}` in XML. Each is
 * Upbeam's in upper case: `CRC32C`, `CRC64NVME`, `SHA256`.
 */
const s3Name = (algorithm: AdditionalChecksum): string => algorithm.toUpperCase();

/** Whether `algorithm` is one S3 names (not MD5, not none). */
export function isAdditionalChecksum(algorithm: ChecksumAlgorithm | undefined): algorithm is AdditionalChecksum {
  return algorithm !== undefined && algorithm !== 'md5';
}

/** The XML element of a part's or the object's checksum: `ChecksumCRC32C`, `ChecksumCRC64NVME`, `ChecksumSHA256`. */
export function checksumElement(algorithm: AdditionalChecksum): string {
  return `Checksum${s3Name(algorithm)}`;
}

/**
 * CreateMultipartUpload's headers for an upload whose parts carry `algorithm`: `x-amz-checksum-algorithm`
 * and `x-amz-checksum-type` (`FULL_OBJECT` for CRC64NVME, the only type S3 allows it; `COMPOSITE` for the
 * others: `MULTIPART_CHECKSUM_TYPES`). None for MD5 or no checksum.
 */
export function createChecksumHeaders(algorithm: ChecksumAlgorithm | undefined): Record<string, string> {
  if (!isAdditionalChecksum(algorithm)) return {};
  const type = MULTIPART_CHECKSUM_TYPES[algorithm] === 'full-object' ? 'FULL_OBJECT' : 'COMPOSITE';
  return { 'x-amz-checksum-algorithm': s3Name(algorithm), 'x-amz-checksum-type': type };
}
