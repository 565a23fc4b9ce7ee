/**
 * The checksums of a multipart upload's parts: each part's header value and the object's checksum
 * (full-object for CRC64NVME, composite for the others). Loaded with `import()` by the part engine only for
 * an upload with a checksum, with the hasher it uses (`checksum.ts`), so that uploads without one never
 * download either.
 */
import type { ChecksumAlgorithm, ObjectChecksum } from '@upbeam/upload-protocol';
import { checksumValue, digestOf, multipartChecksum } from './checksum';
import type { PartRange } from './part-math';

/** The digests of a file's parts, hashed ahead of their senders. */
export class PartChecksums {
  readonly #file: Blob;
  /** Every part of the upload, in part-number order. */
  readonly #parts: readonly PartRange[];
  readonly #ahead: number;
  readonly #algorithm: ChecksumAlgorithm;
  /** Digests by part number, hashed or being hashed (kept for retries and the object's checksum). */
  readonly #digests = new Map<number, Promise<Uint8Array>>();

  /**
   * @param ahead - Parts hashed after the one asked for (the parts sent at once).
   * @param algorithm - The checksum of each part (`CHECKSUM_HEADERS[algorithm]` carries it). @default 'md5'
   */
  constructor(file: Blob, parts: readonly PartRange[], ahead: number, algorithm: ChecksumAlgorithm = 'md5') {
    this.#file = file;
    this.#parts = parts;
    this.#ahead = ahead;
    this.#algorithm = algorithm;
  }

  /**
   * The checksum header's value of a part (base64 of its digest). The `ahead` parts after it are hashed next,
   * while parts are in flight, so that a sender finds its part's digest ready instead of waiting for it
   * (faster than hashing each part when its sender takes it: bench/notes/checksums.md).
   * @throws the read's error when the file can no longer be read.
   */
  async partChecksum(partNumber: number): Promise<string> {
    return checksumValue(await this.partDigest(partNumber));
  }

  /** The digest of a part (`CHECKSUM_DIGEST_BYTES` long), hashing the `ahead` parts after it next. */
  partDigest(partNumber: number): Promise<Uint8Array> {
    const index = partNumber - 1;
    const [digest] = this.#parts.slice(index, index + 1 + this.#ahead).map((part) => this.#hash(part));
    return digest!;
  }

  /** The object's checksum from all the parts' (those stored before a resume are hashed too). */
  async objectChecksum(): Promise<ObjectChecksum> {
    const digests: Uint8Array[] = [];
    for (const part of this.#parts) digests.push(await this.partDigest(part.partNumber));
    return multipartChecksum(
      this.#algorithm,
      digests,
      this.#parts.map((part) => part.end - part.start),
    );
  }

  /** The part's digest, hashed on first use (after the hashes asked before it); a failed hash is not kept. */
  #hash(part: PartRange): Promise<Uint8Array> {
    let digest = this.#digests.get(part.partNumber);
    if (!digest) {
      digest = digestOf(this.#file.slice(part.start, part.end), this.#algorithm);
      // Handled here (a part hashed ahead may fail unasked); its sender sees the error.
      digest.catch(() => this.#digests.delete(part.partNumber));
      this.#digests.set(part.partNumber, digest);
    }
    return digest;
  }
}
