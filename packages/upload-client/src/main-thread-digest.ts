/**
 * Hashing on the page's main thread, where the hash worker cannot start (`worker-digest.ts`): the same
 * hashing as the worker's (`hash-blob.ts`), given back to the page every {@link TASK_BUDGET_MS}. Loaded with
 * `import()` only then, so that a page whose worker runs never downloads hash-wasm into its own thread.
 */
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { hashBlob } from './hash-blob';
import { nextTask } from './next-task';

/**
 * Longest run of reads and hashing on the main thread before it is given back, in ms. Chromium answers a BYOB
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
 * The digest of `blob` by `algorithm`, hashed on the main thread, after the hashes asked before it.
 * @throws the read's error when the file can no longer be read.
 */
export function digestOnMainThread(blob: Blob, algorithm: ChecksumAlgorithm): Promise<Uint8Array> {
  return hashBlob(blob, algorithm, yieldWhenDue);
}
