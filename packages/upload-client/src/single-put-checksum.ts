/**
 * The checksum of a single PUT: the file's digest by the algorithm asked (streamed, in the hash worker; the
 * checksum module, hash-wasm and the worker loaded with `import()` only then, so that a page without
 * checksums never downloads them). The digest is kept per file and algorithm for as long as the page holds
 * the file: a retry, a second preparation (`CHECKSUM_REQUIRED`) or a hash started ahead by the tracker
 * ({@link hashAhead}) never hashes the file again.
 */
import type { ChecksumAlgorithm, ObjectChecksum } from '@upbeam/upload-protocol';
import type { ChecksumOption } from './types';

/** What a single PUT of a file sends and reports for its checksum. */
export interface SinglePutChecksum {
  /** The checksum header to add to the PUT (`Content-MD5`, `x-amz-checksum-crc32c`, ...); none without a checksum. */
  headers: Record<string, string>;
  /** The object's `full-object` checksum (MD5 in hex, the others in base64), for the upload's result. */
  checksum: ObjectChecksum | undefined;
  /** The header's value (base64 of the digest): `_upload.checksum.value` of a preparation. */
  value?: string;
}

const NONE: SinglePutChecksum = { headers: {}, checksum: undefined };

/** Digests by file and algorithm, hashed or being hashed; a failed hash is dropped (the next call tries again). */
const digests = new WeakMap<Blob, Map<ChecksumAlgorithm, Promise<Uint8Array>>>();

/** The digest of the whole `file`, hashed on the first call for this file and algorithm, then kept. */
function cachedDigest(file: Blob, algorithm: ChecksumAlgorithm): Promise<Uint8Array> {
  let byAlgorithm = digests.get(file);
  if (!byAlgorithm) digests.set(file, (byAlgorithm = new Map()));
  let digest = byAlgorithm.get(algorithm);
  if (!digest) {
    const kept = byAlgorithm;
    digest = import('./checksum').then(({ digestOf }) => digestOf(file, algorithm));
    digest.catch(() => kept.delete(algorithm));
    kept.set(algorithm, digest);
  }
  return digest;
}

/**
 * Starts hashing `file` by `algorithm` for its single PUT, if not already started, and returns at once (the
 * tracker calls it for a queued file while others send). A failure is not reported here: the PUT's
 * {@link singlePutChecksum} hashes again and throws it.
 */
export function hashAhead(file: Blob, algorithm: ChecksumAlgorithm): void {
  cachedDigest(file, algorithm).catch(() => undefined);
}

/**
 * The checksum header and object checksum of a single PUT of `file` by `algorithm`; without one (`false`,
 * `undefined`), no header and no checksum.
 * @throws the read's error when the file can no longer be read.
 */
export async function singlePutChecksum(file: Blob, algorithm: ChecksumOption | undefined): Promise<SinglePutChecksum> {
  if (!algorithm) return NONE;
  const digest = await cachedDigest(file, algorithm);
  const { checksumHeader, checksumValue, fullObjectChecksum } = await import('./checksum');
  const value = checksumValue(digest);
  return { headers: { [checksumHeader(algorithm)]: value }, checksum: fullObjectChecksum(algorithm, digest), value };
}
