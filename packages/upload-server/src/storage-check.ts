import { UploadError } from './errors';

/** One check of storage made in this process: its result, and when it refused. */
export interface StorageCheck {
  checked: Promise<void>;
  refusedAt?: number;
}

/**
 * A check of the app's storage (`check`) made once per process for each `id` (endpoint, bucket and access key),
 * the concurrent first callers sharing it. A refusal (an {@link UploadError} `INVALID_SETTINGS`) is kept for
 * `recheckMs` milliseconds, then storage is asked again, so that a fix applied meanwhile takes effect without a
 * restart and a misconfigured app asks storage at most that often; a check that got no verdict (storage
 * unreachable, a 5xx) is not kept: the next caller asks again.
 * @param checks - The checks made so far, one map per kind of check (module-level: every handler and route of
 *   the process shares it).
 * @returns A function that resolves when storage passed the check, and rejects as `check` did.
 */
export function checkOncePerProcess(checks: Map<string, StorageCheck>, id: string, check: () => Promise<void>, recheckMs: number): () => Promise<void> {
  return () => {
    let entry = checks.get(id);
    if (entry?.refusedAt !== undefined && Date.now() - entry.refusedAt >= recheckMs) entry = undefined;
    if (!entry) {
      const current: StorageCheck = { checked: check() };
      current.checked.catch((error: unknown) => {
        if (error instanceof UploadError && error.code === 'INVALID_SETTINGS') current.refusedAt = Date.now();
        else if (checks.get(id) === current) checks.delete(id);
      });
      checks.set(id, current);
      entry = current;
    }
    return entry.checked;
  };
}
