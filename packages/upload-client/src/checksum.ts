/**
 * Checksums of what the browser sends, verified by storage: the MD5 of each part (and of a single PUT) in
 * `Content-MD5`, which S3 and radosgw check against the bytes they received (a mismatch is refused with
 * 400 `BadDigest`), and the checksum of the whole object that those make.
 *
 * MD5 is hashed by `hash-wasm` (WebAssembly; its MD5 alone, ~5 kB gzip), 1 MiB at a time of the part's
 * `Blob.slice()`: the file is never read whole, and the main thread is free between reads. Other modules
 * import its types only and load it with `import()`, so that uploads without a checksum never download it.
 */

import type { ObjectChecksum } from '@upbeam/upload-protocol';
import { createMD5, type IHasher } from 'hash-wasm';

/**
 * A checksum storage verifies on every PUT of the file or of a part: `'md5'` sends `Content-MD5` (RFC
 * 1864; verified by AWS S3 and Ceph radosgw, which refuse a mismatch with `BadDigest`), `false` sends none.
 * Measured on the storage the tests run: radosgw 16.2 verifies `Content-MD5` and ignores
 * `x-amz-checksum-crc32`; s3rver (`@20minutes/s3rver` 5) verifies neither.
 */
export type ChecksumOption = 'md5' | false;

/**
 * Bytes read and hashed at a time, 1 MiB: a few ms of hashing per task, and at most this much of the file
 * read at once. Measured (bench, radosgw, 64 MiB, 3 rounds, 2026-11-23): `Blob.stream()` let chromium hand
 * over a whole 5 MiB part or 64 MiB file in one chunk (a 350-450 ms task, +64 MiB of page heap); 256 KiB
 * reads left no task over 50 ms but hashed slower (0.32x the single PUT without checksum, 0.54x multipart);
 * 1 MiB reads, no task over 50 ms either, 0.37x and 0.77x.
 */
const READ_SIZE = 1024 * 1024;

/** The hasher `hash-wasm` makes, reused for every part of this page (its WebAssembly instantiated once). */
let hasher: Promise<IHasher> | undefined;

/** One hash at a time uses the shared hasher; the next waits for it (parts are hashed in turn). */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The MD5 digest (16 bytes) of `blob`, read 1 MiB at a time (never whole).
 * @throws the stream's error when the file can no longer be read (e.g. it was changed on disk).
 */
export function md5Of(blob: Blob): Promise<Uint8Array> {
  const run = queue.then(async () => {
    const md5 = await (hasher ??= createMD5());
    md5.init();
    for (let at = 0; at < blob.size; at += READ_SIZE) {
      md5.update(new Uint8Array(await blob.slice(at, at + READ_SIZE).arrayBuffer()));
    }
    return md5.digest('binary');
  });
  queue = run.catch(() => undefined);
  return run;
}

/** The value of a `Content-MD5` header: the digest in base64 (RFC 1864). */
export function contentMd5(digest: Uint8Array): string {
  return btoa(String.fromCharCode(...digest));
}

const hex = (digest: Uint8Array) => Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The `full-object` checksum of a single PUT from its MD5 digest. */
export function fullObjectChecksum(digest: Uint8Array): ObjectChecksum {
  return { algorithm: 'md5', type: 'full-object', value: hex(digest) };
}

/**
 * The `composite` checksum of a multipart upload from its parts' MD5 digests, in part order: the MD5 of the
 * digests concatenated, then `-` and the number of parts (S3's multipart ETag).
 */
export async function compositeChecksum(partDigests: readonly Uint8Array[]): Promise<ObjectChecksum> {
  const joined = new Uint8Array(partDigests.length * 16);
  partDigests.forEach((digest, index) => joined.set(digest, index * 16));
  const digest = await md5Of(new Blob([joined]));
  return { algorithm: 'md5', type: 'composite', value: `${hex(digest)}-${partDigests.length}` };
}
