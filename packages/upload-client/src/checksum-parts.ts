/**
 * The MD5 checksums of a multipart upload's parts (`checksum: 'md5'`): each part's `Content-MD5` and the
 * object's composite checksum. Loaded with `import()` by the part engine only for an upload with a checksum,
 * with the hasher it uses (`checksum.ts`), so that uploads without one never download either.
 */
import type { ObjectChecksum } from '@upbeam/upload-protocol';
import { compositeChecksum, contentMd5, md5Of } from './checksum';
import type { PartRange } from './part-math';

/** The MD5 digests of a file's parts, hashed ahead of their senders. */
export class PartChecksums {
  readonly #file: Blob;
  /** Every part of the upload, in part-number order. */
  readonly #parts: readonly PartRange[];
  readonly #ahead: number;
  /** Digests by part number, hashed or being hashed (kept for retries and the object's checksum). */
  readonly #digests = new Map<number, Promise<Uint8Array>>();

  /** @param ahead - Parts hashed after the one asked for (the parts sent at once). */
  constructor(file: Blob, parts: readonly PartRange[], ahead: number) {
    this.#file = file;
    this.#parts = parts;
    this.#ahead = ahead;
  }

  /**
   * The `Content-MD5` of a part. The `ahead` parts after it are hashed next, while parts are in flight, so
   * that a sender finds its part's digest ready instead of waiting for it (faster than hashing each part when
   * its sender takes it: bench/notes/checksums.md).
   * @throws the read's error when the file can no longer be read.
   */
  async contentMd5(partNumber: number): Promise<string> {
    return contentMd5(await this.#digest(partNumber));
  }

  /** The composite checksum of all the parts (those stored before a resume are hashed too). */
  async objectChecksum(): Promise<ObjectChecksum> {
    const digests: Uint8Array[] = [];
    for (const part of this.#parts) digests.push(await this.#digest(part.partNumber));
    return compositeChecksum(digests);
  }

  #digest(partNumber: number): Promise<Uint8Array> {
    const index = partNumber - 1;
    const [digest] = this.#parts.slice(index, index + 1 + this.#ahead).map((part) => this.#hash(part));
    return digest!;
  }

  /** The part's digest, hashed on first use (after the hashes asked before it); a failed hash is not kept. */
  #hash(part: PartRange): Promise<Uint8Array> {
    let digest = this.#digests.get(part.partNumber);
    if (!digest) {
      digest = md5Of(this.#file.slice(part.start, part.end));
      // Handled here (a part hashed ahead may fail unasked); its sender sees the error.
      digest.catch(() => this.#digests.delete(part.partNumber));
      this.#digests.set(part.partNumber, digest);
    }
    return digest;
  }
}
