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

/**
 * Calls `listener` once when `signal` aborts, at once if it already has.
 * @returns a function that removes the listener: call it when the work it would cancel is over.
 */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  if (signal?.aborted) listener();
  else signal?.addEventListener('abort', listener, { once: true });
  return () => signal?.removeEventListener('abort', listener);
}
