/**
 * At most `limit` tasks running at once, the others queued in the order asked; a queued task whose signal
 * aborts leaves the queue without running (a row scrolled past before its turn costs nothing).
 */
export interface TaskLimit {
  /** Runs `task` once a slot is free; rejects with the signal's reason if it aborts while queued. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Tasks running now. */
  readonly running: number;
  /** Tasks waiting for a slot. */
  readonly queued: number;
}

interface Waiting {
  start: () => void;
  signal?: AbortSignal;
  onAbort: () => void;
}

/** A {@link TaskLimit} of `limit` slots (an integer, at least 1). */
export function taskLimit(limit: number): TaskLimit {
  let running = 0;
  const waiting: Waiting[] = [];

  const next = () => {
    while (running < limit && waiting.length > 0) {
      const entry = waiting.shift()!;
      entry.signal?.removeEventListener('abort', entry.onAbort);
      entry.start();
    }
  };

  return {
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<T>((resolve, reject) => {
        const entry: Waiting = {
          signal,
          start: () => {
            running += 1;
            let settled: Promise<T>;
            try {
              settled = task();
            } catch (error) {
              settled = Promise.reject(error);
            }
            settled.then(resolve, reject).finally(() => {
              running -= 1;
              next();
            });
          },
          onAbort: () => {
            const at = waiting.indexOf(entry);
            if (at >= 0) waiting.splice(at, 1);
            reject(signal!.reason);
          },
        };
        signal?.addEventListener('abort', entry.onAbort, { once: true });
        waiting.push(entry);
        next();
      });
    },
  };
}
