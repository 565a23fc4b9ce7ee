/**
 * The page's side of the hash worker (`hash-worker.ts`): one module Worker, started on the first hash and
 * reused, that digests the `Blob`s posted to it in turn. Where it cannot start or answer (no `Worker`: Node,
 * old engines; a Content-Security-Policy without `worker-src 'self'`; a bundler that left
 * `dist/hash-worker.js` behind, so that its URL answers 404 or a page), each hash asked of it, and every one
 * after, is run by the fallback given (the main thread's): slower for the page, never lost.
 */
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import type { HashAnswer, HashRequest } from './hash-worker';

/** Hashes a blob without the worker (on the main thread). */
export type Fallback = (blob: Blob, algorithm: ChecksumAlgorithm) => Promise<Uint8Array>;

interface Pending {
  request: HashRequest;
  fallback: Fallback;
  resolve: (digest: Uint8Array) => void;
  reject: (error: unknown) => void;
}

/** The worker once started; `null` once it could not start or failed (then never tried again on this page). */
let worker: Worker | null | undefined;

/** Hashes posted to the worker and not answered yet, by id. */
const pending = new Map<number, Pending>();

let lastId = 0;

/**
 * Gives up the worker: every hash it holds is run by its fallback, and so is every later one. Called on the
 * worker's `error` event (its script could not be fetched or run), `messageerror` (an answer it could not
 * send), and an answer that WebAssembly failed in the worker.
 */
function abandon(): void {
  worker?.terminate();
  worker = null;
  const stranded = [...pending.values()];
  pending.clear();
  for (const { request, fallback, resolve, reject } of stranded) fallback(request.blob, request.algorithm).then(resolve, reject);
}

function answered({ data }: MessageEvent<HashAnswer>): void {
  const entry = pending.get(data.id);
  if (!entry) return;
  // WebAssembly failed in the worker (not the file): this hash and the others go to the fallback.
  if ('error' in data && data.error.wasm) return abandon();
  pending.delete(data.id);
  if ('digest' in data) entry.resolve(data.digest);
  else entry.reject(rebuilt(data.error));
}

/** The JavaScript errors a read can throw (Chromium fails a stream of a changed file with `TypeError`). */
const ERRORS: Record<string, ErrorConstructor> = { Error, TypeError, RangeError };

/** The worker's error as the page's own read would have thrown it: that class, or a `DOMException` of that name. */
function rebuilt({ name, message }: { name: string; message: string }): Error {
  const Class = ERRORS[name];
  return Class ? new Class(message) : new DOMException(message, name);
}

/** The worker, started on first use; `undefined` where none can start. */
function hashWorker(): Worker | undefined {
  if (worker !== undefined) return worker ?? undefined;
  try {
    // Written as bundlers recognize it (Vite, webpack 5, Next.js, Parcel): they then emit the worker's file.
    // The CJS build has no `import.meta.url`: the URL throws there, as `Worker` is missing in Node.
    worker = new Worker(new URL('./hash-worker.js', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
    return undefined;
  }
  worker.onmessage = answered;
  worker.onerror = (event) => {
    event.preventDefault();
    abandon();
  };
  worker.onmessageerror = abandon;
  return worker;
}

/**
 * The digest of `blob` by `algorithm`, hashed in the worker (in the order asked), or by `fallback` where the
 * worker cannot start or fails before it answers.
 * @throws the read's error as the worker met it, rebuilt in the page: a `TypeError` (Chromium: `network error`, for a
 *   file changed on disk), or a `DOMException` of the same name (`NotReadableError`, `NotFoundError`, ...).
 */
export function digestInWorker(blob: Blob, algorithm: ChecksumAlgorithm, fallback: Fallback): Promise<Uint8Array> {
  const hasher = hashWorker();
  if (!hasher) return fallback(blob, algorithm);
  return new Promise((resolve, reject) => {
    const request: HashRequest = { id: ++lastId, blob, algorithm };
    try {
      hasher.postMessage(request);
    } catch {
      // A blob the engine cannot clone (DataCloneError): this one on the main thread.
      fallback(blob, algorithm).then(resolve, reject);
      return;
    }
    pending.set(request.id, { request, fallback, resolve, reject });
  });
}
