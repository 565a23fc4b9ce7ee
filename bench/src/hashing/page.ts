/**
 * The hashing benchmark's page: hashes the picked file with the client's own hashing (`checksum.ts`), in the
 * hash worker (whole, or as 5 MiB parts) or on the main thread (`main-thread-digest.ts`, its 10 ms task budget
 * included), and with
 * `crypto.subtle.digest('SHA-256')` of the whole file read into one buffer (WebCrypto takes no stream), and
 * the file read as the hashing reads it with no hash (the floor: what reading the file costs).
 * Driven by `run.ts` through `window.hashing`.
 */
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { digestOf } from '../../../packages/upload-client/src/checksum';
import { digestOnMainThread } from '../../../packages/upload-client/src/main-thread-digest';
import { digestInWorker } from '../../../packages/upload-client/src/worker-digest';

/** One hash of the picked file: wall ms (and, for WebCrypto, the read apart), the digest in hex. */
export interface HashTiming {
  ms: number;
  readMs?: number;
  hex: string;
}

export type HashWhere = 'worker' | 'parts' | 'main' | 'subtle' | 'read';

/** The part size of `parts`: the client's default (`DEFAULT_PART_SIZE`, 5 MiB). */
const PART_SIZE = 5 * 1024 * 1024;

const hex = (digest: ArrayBuffer | Uint8Array) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');

function picked(): File {
  return (document.querySelector('input') as HTMLInputElement).files![0]!;
}

async function hash(where: HashWhere, algorithm: ChecksumAlgorithm): Promise<HashTiming> {
  const file = picked();
  const start = performance.now();
  if (where === 'subtle') {
    const bytes = await file.arrayBuffer();
    const read = performance.now();
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return { ms: performance.now() - start, readMs: read - start, hex: hex(digest) };
  }
  if (where === 'read') {
    await readOnly(file);
    return { ms: performance.now() - start, hex: '' };
  }
  if (where === 'parts') {
    // As a multipart upload hashes its parts: each slice in the worker, in turn (SHA-256: WebCrypto).
    const digests: Uint8Array[] = [];
    for (let at = 0; at < file.size; at += PART_SIZE) digests.push(await digestOf(file.slice(at, at + PART_SIZE), algorithm));
    return { ms: performance.now() - start, hex: hex(await digestOf(new Blob(digests as Uint8Array<ArrayBuffer>[]), algorithm)) };
  }
  const digest = await (where === 'worker' ? digestOf(file, algorithm) : digestOnMainThread(file, algorithm));
  return { ms: performance.now() - start, hex: hex(digest) };
}

/** Reads `file` as the hashing does (1 MiB BYOB reads into one buffer) and hashes nothing: the floor. */
async function readOnly(file: Blob): Promise<void> {
  const reader = file.stream().getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(1024 * 1024);
  for (;;) {
    const read = await reader.read(new Uint8Array(buffer));
    if (read.done) return;
    buffer = read.value.buffer as ArrayBuffer;
  }
}

/**
 * Starts the worker and instantiates every hasher on both threads (uncounted).
 * @throws when the worker did not start (the `worker` figures would be the main thread's).
 */
async function warmUp(): Promise<void> {
  const tiny = new Blob([new Uint8Array(1024)]);
  const noFallback = () => Promise.reject(new Error('the hash worker did not start'));
  for (const algorithm of CHECKSUM_ALGORITHMS) {
    await digestInWorker(tiny, algorithm, noFallback);
    await digestOnMainThread(tiny, algorithm);
  }
}

Object.assign(window, { hashing: { hash, warmUp } });
document.body.innerHTML = '<input type="file">';
