/**
 * The hash worker: a module Worker that hashes the `Blob`s the page posts it (a `Blob` is cloned as a
 * reference to the same bytes, never copied) and posts back each digest, so that a file is read and hashed
 * off the page's main thread. Started by `worker-digest.ts`; built by tsup as its own file,
 * `dist/hash-worker.js`, beside the chunk that starts it. It imports nothing dynamically (bundlers build a
 * worker as one file).
 */
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { hashBlob } from './hash-blob';

/** What the page asks: the digest of `blob` by `algorithm`, answered under `id`. */
export interface HashRequest {
  id: number;
  blob: Blob;
  algorithm: ChecksumAlgorithm;
}

/**
 * The worker's answer to one {@link HashRequest}: the digest, or the error (its name and message); `wasm` when
 * the error is WebAssembly's (the hasher could not be compiled or run here, e.g. a worker CSP without
 * `'wasm-unsafe-eval'`), not the file's.
 */
export type HashAnswer = { id: number; digest: Uint8Array } | { id: number; error: { name: string; message: string; wasm: boolean } };

/** Whether `error` comes from WebAssembly itself rather than from reading the file. */
const isWasmError = (error: unknown) =>
  typeof WebAssembly !== 'undefined' &&
  (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError || error instanceof WebAssembly.RuntimeError);

/** The worker's global scope, the little of it used here (the DOM library types `self` as a window). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<HashRequest>) => void) | null;
  postMessage(message: HashAnswer, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = ({ data: { id, blob, algorithm } }) => {
  // Hashed in the order asked (hashBlob's queue); no pause: nothing else runs on this thread.
  hashBlob(blob, algorithm).then(
    (digest) => scope.postMessage({ id, digest }, [digest.buffer]),
    (error: unknown) => {
      const { name = 'Error', message = String(error) } = error instanceof Error || error instanceof DOMException ? error : {};
      scope.postMessage({ id, error: { name, message, wasm: isWasmError(error) } }, []);
    },
  );
};
