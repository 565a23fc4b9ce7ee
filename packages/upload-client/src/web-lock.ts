/**
 * Web Locks (`navigator.locks`) held for as long as the caller wants: one tab of the origin at a time holds a
 * lock of a name, and the browser releases it when that tab goes (closed, reloaded, crashed). Where the API
 * is missing (a server render, an old browser) every lock is granted at once: there is no other tab to
 * keep out that the browser could tell of.
 */

/** Gives a held lock back. Calling it again does nothing. */
export type ReleaseLock = () => void;

const GRANTED_WITHOUT_LOCKS: ReleaseLock = () => {};

function locks(): LockManager | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.locks;
}

function request(name: string, options: LockOptions): Promise<ReleaseLock | undefined> {
  const manager = locks();
  if (!manager) return Promise.resolve(GRANTED_WITHOUT_LOCKS);
  return new Promise((resolve, reject) => {
    manager
      .request(name, options, (lock) => {
        if (!lock) {
          resolve(undefined);
          return undefined;
        }
        // Held until the caller releases it: the callback's promise settles then.
        return new Promise<void>((release) => resolve(release));
      })
      .catch(reject);
  });
}

/** The lock `name` if no one holds it now (no wait); `undefined` when another tab (or this one) holds it. */
export function tryLock(name: string): Promise<ReleaseLock | undefined> {
  return request(name, { ifAvailable: true });
}

/**
 * The lock `name`, once its holder releases it (or its tab goes).
 * @throws `AbortError` DOMException when `signal` aborts first.
 */
export async function waitForLock(name: string, signal?: AbortSignal): Promise<ReleaseLock> {
  return (await request(name, signal ? { signal } : {}))!;
}
