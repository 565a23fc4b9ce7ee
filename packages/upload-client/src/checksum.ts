/**
 * Checksums of what the browser sends, verified by storage: the digest of a file or a part by one of
 * `CHECKSUM_ALGORITHMS` (CRC32C, CRC64NVME, SHA-256, MD5), the header value each travels in, and the checksum
 * of the whole object that those make (full-object or composite: `MULTIPART_CHECKSUM_TYPES`).
 *
 * Files are hashed by `hash-wasm` (WebAssembly) in a module Worker (`worker-digest.ts`), read 1 MiB at a
 * time into one reused buffer, never whole; where no worker can start, on the main thread, given back every
 * 10 ms (`main-thread-digest.ts`, loaded then). Other modules import its types only and load it with
 * `import()`, so that uploads without a checksum never download it, hash-wasm or the worker.
 */

import { CHECKSUM_HEADERS, type ChecksumAlgorithm, MULTIPART_CHECKSUM_TYPES, type ObjectChecksum } from '@upbeam/upload-protocol';
import { bigIntToDigest, combineCrcs, CRC32C, CRC64NVME, type CrcSpec, digestToBigInt } from './crc-combine';
import { digestInWorker } from './worker-digest';

/** The digest of `blob` on the main thread (its module, with hash-wasm, loaded on first use). */
async function digestOnMainThread(blob: Blob, algorithm: ChecksumAlgorithm): Promise<Uint8Array> {
  const mainThread = await import('./main-thread-digest');
  return mainThread.digestOnMainThread(blob, algorithm);
}

/**
 * The digest of `blob` by `algorithm` (`CHECKSUM_DIGEST_BYTES` long; a CRC big-endian), hashed in the worker
 * where one can start, else on the main thread; digests are computed one at a time, in the order asked.
 * @throws the read's error when the file can no longer be read (e.g. changed on disk: `NotReadableError`).
 */
export function digestOf(blob: Blob, algorithm: ChecksumAlgorithm): Promise<Uint8Array> {
  return digestInWorker(blob, algorithm, digestOnMainThread);
}

/**
 * The checksum header's name as requests spell it: `Content-MD5` (RFC 1864) for MD5, `CHECKSUM_HEADERS` (lower
 * case `x-amz-checksum-*`) for the others.
 */
export const checksumHeader = (algorithm: ChecksumAlgorithm): string => (algorithm === 'md5' ? 'Content-MD5' : CHECKSUM_HEADERS[algorithm]);

/** A digest in base64: the value of a checksum header (`x-amz-checksum-*`, and `Content-MD5`: RFC 1864). */
export function checksumValue(digest: Uint8Array): string {
  return btoa(String.fromCharCode(...digest));
}

const hex = (digest: Uint8Array) => Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A digest as `ObjectChecksum.value` shows it: MD5 in lowercase hex (the ETag's form), the others in base64. */
const objectValue = (algorithm: ChecksumAlgorithm, digest: Uint8Array) => (algorithm === 'md5' ? hex(digest) : checksumValue(digest));

/** The `full-object` checksum of a single PUT from the digest of the whole file. */
export function fullObjectChecksum(algorithm: ChecksumAlgorithm, digest: Uint8Array): ObjectChecksum {
  return { algorithm, type: 'full-object', value: objectValue(algorithm, digest) };
}

/** The CRCs a full-object multipart checksum can be combined for. */
const CRCS: Partial<Record<ChecksumAlgorithm, CrcSpec>> = { crc32c: CRC32C, crc64nvme: CRC64NVME };

/**
 * The checksum of a multipart upload from its parts' digests and sizes (bytes), in part order, as storage
 * reports it (`MULTIPART_CHECKSUM_TYPES`): for CRC64NVME the full-object CRC, combined from the part CRCs
 * (`crc-combine.ts`); for the others the composite, the digest of the part digests joined, then `-` and the
 * number of parts (for MD5, S3's multipart ETag).
 * @throws RangeError when there is no part, or not one size per digest.
 */
export async function multipartChecksum(
  algorithm: ChecksumAlgorithm,
  partDigests: readonly Uint8Array[],
  partSizes: readonly number[],
): Promise<ObjectChecksum> {
  if (partDigests.length === 0 || partDigests.length !== partSizes.length) {
    throw new RangeError(`${partDigests.length} part digests for ${partSizes.length} sizes`);
  }
  const crc = MULTIPART_CHECKSUM_TYPES[algorithm] === 'full-object' && CRCS[algorithm];
  if (crc) return fullObjectChecksum(algorithm, bigIntToDigest(combineCrcs(crc, partDigests.map(digestToBigInt), partSizes), crc.width / 8));
  const joined = new Uint8Array(partDigests.reduce((length, digest) => length + digest.length, 0));
  partDigests.reduce((at, digest) => (joined.set(digest, at), at + digest.length), 0);
  const digest = await digestOf(new Blob([joined]), algorithm);
  return { algorithm, type: 'composite', value: `${objectValue(algorithm, digest)}-${partDigests.length}` };
}

/** The MD5 digest (16 bytes) of `blob`, as {@link digestOf} hashes it (kept for test/checksum-engines.test.ts). */
export function md5Of(blob: Blob): Promise<Uint8Array> {
  return digestOf(blob, 'md5');
}
