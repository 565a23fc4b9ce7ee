/**
 * Checksums of what the browser sends, verified by storage: the MD5 of each part (and of a single PUT) in
 * `Content-MD5`, which S3 and radosgw check against the bytes they received (a mismatch is refused with
 * 400 `BadDigest`), and the checksum of the whole object that those make.
 *
 * MD5 is hashed by `hash-wasm` (WebAssembly; its MD5 alone, ~5 kB gzip), 1 MiB at a time read into one
 * reused buffer: the file is never read whole, the page heap stays flat, and the main thread is given back
 * every 10 ms. Other modules import its types only and load it with `import()`, so that uploads without a
 * checksum never download it.
 */

import type { ChecksumAlgorithm, ObjectChecksum } from '@upbeam/upload-protocol';
import { createMD5, type IHasher } from 'hash-wasm';
import { nextTask } from './next-task';

/**
 * A checksum storage verifies on every PUT of the file or of a part: `'md5'` sends `Content-MD5` (RFC
 * 1864; verified by AWS S3 and Ceph radosgw, which refuse a mismatch with `BadDigest`), `false` sends none.
 * s3rver (the local development storage) verifies no checksum.
 */
export type ChecksumOption = ChecksumAlgorithm | false;

/**
 * Bytes read and hashed at a time, 1 MiB, into one buffer reused from hash to hash (a BYOB reader): the
 * fastest reader that keeps the page heap flat, and no faster in a Worker; the measurements are in
 * bench/notes/checksums.md.
 */
const READ_SIZE = 1024 * 1024;

/**
 * Longest run of reads and hashing before the main thread is given back, in ms. Chromium answers a BYOB
 * read of a file at once (a microtask, not a new task), so without these breaks a 128 MiB file was hashed
 * in one task of 300-420 ms; with them, no task over 50 ms on its own, at 0.7-1.0x the speed. The run is
 * shared by the hashes that follow one another (the parts hashed ahead): a hash that starts in the task
 * where another ended gets what is left of the budget, not one of its own (the traced task times:
 * bench/notes/part-scheduling.md).
 */
const TASK_BUDGET_MS = 10;

/** When the current run of hashing began (`performance.now()`); 0 before the first. */
let runStart = 0;

/** Gives the main thread back when the current run of hashing has used {@link TASK_BUDGET_MS}. */
async function yieldWhenDue(): Promise<void> {
  if (performance.now() - runStart <= TASK_BUDGET_MS) return;
  await nextTask();
  runStart = performance.now();
}

/**
 * The buffer that reads fill, kept from one hash to the next (they run one at a time): a multipart
 * upload allocates it once, not once per part (a new one per part grew the page heap by 27 MiB for a
 * 128 MiB file). A read takes it over (transfers it) and gives it back as its chunk's.
 */
let readBuffer: ArrayBuffer | undefined;

/**
 * Calls `use` with each chunk of `blob` in order, at most {@link READ_SIZE} bytes each. The chunk is a
 * view of the buffer that the next read fills again: `use` must be done with it when it returns.
 */
async function readChunks(blob: Blob, use: (chunk: Uint8Array) => void): Promise<void> {
  if (blob.size === 0) return;
  let reader: ReadableStreamBYOBReader;
  try {
    reader = blob.stream().getReader({ mode: 'byob' });
  } catch {
    // WebKit (2.4x): Blob.stream() is not a byte stream. Slices then, a new buffer each.
    for (let at = 0; at < blob.size; at += READ_SIZE) use(new Uint8Array(await blob.slice(at, at + READ_SIZE).arrayBuffer()));
    return;
  }
  // A buffer lost to a failed read (detached, 0 bytes long) is replaced.
  let buffer = readBuffer?.byteLength ? readBuffer : new ArrayBuffer(READ_SIZE);
  for (;;) {
    await yieldWhenDue();
    const read = await reader.read(new Uint8Array(buffer));
    if (read.value) buffer = readBuffer = read.value.buffer;
    if (read.done) return;
    use(read.value);
  }
}

/** The hasher `hash-wasm` makes, reused for every part of this page (its WebAssembly instantiated once). */
let hasher: Promise<IHasher> | undefined;

/** One hash at a time uses the shared hasher; the next waits for it (parts are hashed in turn). */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The MD5 digest (16 bytes) of `blob`, read {@link READ_SIZE} bytes at a time into one buffer (never whole).
 * @throws the read's error when the file can no longer be read (e.g. it was changed on disk).
 */
export function md5Of(blob: Blob): Promise<Uint8Array> {
  const run = queue.then(async () => {
    const md5 = await (hasher ??= createMD5());
    md5.init();
    await readChunks(blob, (chunk) => md5.update(chunk));
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
