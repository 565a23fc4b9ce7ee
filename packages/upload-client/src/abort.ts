/** Message of the error a cancelled upload rejects with (SPEC 8). */
export const ABORT_MESSAGE = 'Upload aborted.';

/** The error a cancelled upload rejects with: a `DOMException` named `AbortError`, message `Upload aborted.`. */
export function createAbortError(): DOMException {
  return new DOMException(ABORT_MESSAGE, 'AbortError');
}

/** True for the error of a cancelled upload (any `AbortError`, as `fetch` also throws). */
export function isAbortError(value: unknown): boolean {
  return (value as { name?: unknown } | null)?.name === 'AbortError';
}

const noSignal = (): void => {};

/**
 * Calls `listener` once when `signal` aborts, at once if it already has.
 * @returns a function that removes the listener: call it when the work it would cancel is over.
 */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  // No signal: one shared no-op, not a function per call (the tracker asks for every file it adds).
  if (!signal) return noSignal;
  if (signal.aborted) listener();
  else signal?.addEventListener('abort', listener, { once: true });
  return () => signal?.removeEventListener('abort', listener);
}
