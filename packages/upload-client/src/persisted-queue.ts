/**
 * The kept queue of a tracker with `persist`: each queued and running file (the `File` itself), with the
 * options it was added with, in IndexedDB (the `queue` store beside the resume journal), so that after a
 * reload or a crash the tracker finds its files again without the user picking them; and one Web Lock per
 * kept file, held by the tab that uploads it, so that a second tab leaves it alone until the first is gone.
 * Files are kept under the scope the app names (its user), and only a queue of that scope reads them.
 * Loaded with `import()` (with `tracker-persistence.ts`) by a tracker with `persist` only. Never throws:
 * without IndexedDB nothing is kept.
 */
import { inStore } from './browser-database';
import type { UploadOptions } from './types';
import { tryLock, waitForLock, type ReleaseLock } from './web-lock';

/** Settings of `persist` (see `UploadTrackerOptions.persist`). */
export interface PersistOptions {
  /**
   * Most bytes of files the queue keeps at once (the sum of their sizes, in every tab of the origin): a file
   * that would pass it is uploaded but not kept (its `persistence` is `'over-budget'`).
   * @default 524288000 (500 MiB)
   */
  maxBytes?: number;
  /** Name of the kept queue: trackers of the same name (in any tab of the origin) restore each other's files. @default 'default' */
  name?: string;
  /**
   * Whose queue this is: the signed-in user's id (any string that names one identity). Files are kept under
   * their scope, and a tracker restores only those of its own scope (its resume journal records too): a file
   * one user picked is never uploaded under another user's session on a shared browser profile, and comes
   * back when that user signs in again. Clear a user's files on sign-out with `clearKeptUploads`. Unset (and
   * with `persist: true`): the unscoped queue, shared by every unscoped tracker of the origin whoever is
   * signed in (for a page without sign-in); a tracker with a scope never reads it.
   */
  scope?: string;
}

/** 500 MiB: the files a user would wait for again after a reload, well inside every engine's quota for an origin. */
export const DEFAULT_PERSIST_MAX_BYTES = 500 * 1024 * 1024;

/**
 * Whether the browser keeps a file of a tracker with `persist`: `'kept'` (it comes back after a reload or a
 * crash), `'over-budget'` (it would pass `persist.maxBytes`), `'unavailable'` (the browser refused to store it:
 * no IndexedDB, a full disk, or an engine that cannot store a `File`).
 */
export type Persistence = 'kept' | 'over-budget' | 'unavailable';

/** The options of an upload the queue keeps: those that decide where and how the file goes. */
const KEPT_OPTIONS = [
  'strategy',
  'filename',
  'route',
  'multipartThreshold',
  'partSize',
  'checksum',
  'queueSize',
  'leavePartsOnError',
  'tags',
  'maxAttempts',
] as const satisfies readonly (keyof UploadOptions)[];

/** One kept file. */
export interface PersistedFile {
  /** The tracked file's id. */
  id: string;
  file: File;
  path?: string | undefined;
  /**
   * Its options ({@link KEPT_OPTIONS}, and the endpoint's `url` and `body`; never its `headers`, which can hold
   * a token: the restoring tracker's own apply).
   */
  options: UploadOptions;
  /** When it was added, in milliseconds since the epoch (restored files go in this order). */
  addedAt: number;
  /**
   * It was added with a `transform` (which, a function, cannot be kept): restored by a tracker without one, it
   * fails rather than going up as picked (a photo with its GPS position).
   */
  transformed?: boolean;
}

/** The options of an upload that a kept file keeps (see {@link PersistedFile.options}). */
function keptOptions(options: UploadOptions): UploadOptions {
  const kept: Record<string, unknown> = {};
  for (const name of KEPT_OPTIONS) if (options[name] !== undefined) kept[name] = options[name];
  const { url, body } = options.endpoint ?? {};
  if (url !== undefined || body !== undefined) kept.endpoint = { ...(url === undefined ? {} : { url }), ...(body === undefined ? {} : { body }) };
  return kept as UploadOptions;
}

/** A transaction's end, as a promise: `true` once committed. */
function committed(transaction: IDBTransaction): Promise<true> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve(true);
    transaction.onabort = () => reject(transaction.error);
    transaction.onerror = () => reject(transaction.error);
  });
}

/**
 * The key of a kept file: `[name, id]` without a scope (as before scopes), `[[scope, name], id]` with one. An
 * array sorts after every string, so no key of a scope is in an unscoped queue's range, and the files of one
 * scope are the keys from `[[scope]]` to `[[scope, []]]` ({@link scopeQueueRange}).
 */
type QueueKey = [queue: string | [scope: string, name: string], id: string];

/** The keys of every kept file of one scope, whatever its queue's name. */
export function scopeQueueRange(scope: string): IDBKeyRange {
  return IDBKeyRange.bound([[scope]], [[scope, []]]);
}

/** The scope of a kept file's key (`undefined`: unscoped). */
export function scopeOfKey(key: IDBValidKey): string | undefined {
  const [queue] = key as QueueKey;
  return typeof queue === 'string' ? undefined : queue[0];
}

/** The kept queue of one name and scope; see the module's comment. */
export class PersistedQueue {
  /** Where the queue's keys start (see {@link QueueKey}). */
  readonly #queue: QueueKey[0];
  readonly #name: string;
  readonly #maxBytes: number;
  /** The scope given (see {@link PersistOptions.scope}). */
  readonly scope: string | undefined;
  /** The locks this tab holds, per file id. */
  readonly #held = new Map<string, ReleaseLock>();
  /** Writes go one after another, in order: a file's removal never runs before its keeping. */
  #writes: Promise<unknown> = Promise.resolve();

  constructor(settings: true | PersistOptions) {
    const { name = 'default', maxBytes = DEFAULT_PERSIST_MAX_BYTES, scope } = settings === true ? {} : settings;
    this.#queue = scope === undefined ? name : [scope, name];
    this.#name = name;
    this.#maxBytes = maxBytes;
    this.scope = scope;
  }

  #key(id: string): QueueKey {
    return [this.#queue, id];
  }

  /** The queue's files are the keys from `[queue]` (shorter sorts first) to `[queue, []]` (an array sorts after every string). */
  #range(): IDBKeyRange {
    return IDBKeyRange.bound([this.#queue], [this.#queue, []]);
  }

  #lockName(id: string): string {
    return `upbeam-queue:${this.#name}:${id}`;
  }

  #inOrder<T>(work: () => Promise<T>): Promise<T> {
    const done = this.#writes.then(work);
    this.#writes = done.catch(() => {});
    return done;
  }

  /** Keeps a file just added (its lock taken first), unless the queue's files would pass the byte budget. */
  keep(id: string, file: File, path: string | undefined, options: UploadOptions): Promise<Persistence> {
    return this.#inOrder(async () => {
      const release = await tryLock(this.#lockName(id));
      if (!release) return 'unavailable';
      const record: PersistedFile = {
        id,
        file,
        path,
        options: keptOptions(options),
        addedAt: Date.now(),
        ...(options.transform ? { transformed: true } : {}),
      };
      const put = await inStore('queue', 'readwrite', (store) => this.#putWithinBudget(store, record));
      if (put === 'kept') this.#held.set(id, release);
      else release();
      return put ?? 'unavailable';
    });
  }

  /** In one transaction: the sizes of the kept files, then the record if it fits. */
  #putWithinBudget(store: IDBObjectStore, record: PersistedFile): Promise<Persistence> {
    const done = committed(store.transaction);
    done.catch(() => {});
    return new Promise<Persistence>((resolve, reject) => {
      const listing = store.getAll(this.#range());
      listing.onerror = () => reject(listing.error);
      listing.onsuccess = () => {
        const used = (listing.result as PersistedFile[]).reduce((sum, kept) => sum + kept.file.size, 0);
        if (used + record.file.size > this.#maxBytes) return resolve('over-budget');
        try {
          store.put(record, this.#key(record.id));
        } catch (error) {
          // DataCloneError where the engine cannot store the File: the caller reports `unavailable`.
          return reject(error);
        }
        resolve(done.then(() => 'kept' as const));
      };
    });
  }

  /** Removes a file from the queue (done, failed, cancelled, removed) and gives its lock back. */
  forget(id: string): Promise<void> {
    return this.#inOrder(async () => {
      if (!this.#held.has(id)) return;
      await inStore('queue', 'readwrite', (store) => store.delete(this.#key(id)));
      this.#release(id);
    });
  }

  #release(id: string): void {
    this.#held.get(id)?.();
    this.#held.delete(id);
  }

  /** The kept files, oldest first. */
  async list(): Promise<PersistedFile[]> {
    const files = (await inStore('queue', 'readonly', (store) => store.getAll(this.#range()) as IDBRequest<PersistedFile[]>)) ?? [];
    return files.sort((a, b) => a.addedAt - b.addedAt);
  }

  /** Takes the lock of a kept file if no tab holds it; `false` when one does (it runs there). */
  async claim(id: string): Promise<boolean> {
    const release = await tryLock(this.#lockName(id));
    if (release) this.#held.set(id, release);
    return release !== undefined;
  }

  /**
   * Waits for the tab that holds a kept file to give it up, takes its lock, and reads it again.
   * @returns the file, or `undefined` when that tab finished it (it left the queue); its lock is then given back.
   */
  async takeOver(id: string): Promise<PersistedFile | undefined> {
    const release = await waitForLock(this.#lockName(id));
    const kept = await inStore('queue', 'readonly', (store) => store.get(this.#key(id)) as IDBRequest<PersistedFile | undefined>);
    if (!kept) {
      release();
      return undefined;
    }
    this.#held.set(id, release);
    return kept;
  }

  /** Gives back the lock of a file this tab no longer tracks (removed while it waited) without removing it. */
  letGo(id: string): void {
    this.#release(id);
  }
}
