/**
 * The kept queue of a tracker with `persist`: each queued and running file (the `File` itself), with the
 * options it was added with, in IndexedDB (the `queue` store beside the resume journal), so that after a
 * reload or a crash the tracker finds its files again without the user picking them; and one Web Lock per
 * kept file, held by the tab that uploads it, so that a second tab leaves it alone until the first is gone.
 * Files are kept under the scope the app names (its user), and only a queue of that scope reads them.
 * Loaded with `import()` (with `tracker-persistence.ts`) by a tracker with `persist` only. Never throws:
 * without IndexedDB nothing is kept.
 */
import { inStore, readInPages, request } from './browser-database';
import { nextTask } from './next-task';
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

/**
 * Most changes (files kept or forgotten) one transaction writes: the page's thread clones each kept record when
 * it is put, ~10 µs a file in chromium, so a transaction holds it a few milliseconds.
 */
const MOST_PER_TRANSACTION = 500;

/** A change waiting for the next write: a file to keep (`record`), or one to forget. */
interface Change {
  id: string;
  record?: PersistedFile;
  /** Told the outcome once the transaction that holds the change ends (`undefined` for a forget). */
  settle(persistence: Persistence | undefined): void;
}

/** The kept queue of one name and scope; see the module's comment. */
export class PersistedQueue {
  /** Where the queue's keys start (see {@link QueueKey}). */
  readonly #queue: QueueKey[0];
  readonly #name: string;
  readonly #maxBytes: number;
  /** The scope given (see {@link PersistOptions.scope}). */
  readonly scope: string | undefined;
  /** The files this tab holds (their lock), per id, with their size (what forgetting one frees of the budget). */
  readonly #held = new Map<string, { release: ReleaseLock; size: number }>();
  /** Changes not written yet, in the order asked: a file's removal never runs before its keeping. */
  #changes: Change[] = [];
  /** The next write, once one is due. */
  #due: Promise<void> | undefined;
  /** Writes go one after another. */
  #writes: Promise<unknown> = Promise.resolve();
  /**
   * The queue's records and their bytes (every tab's) as this tab last read or wrote them; a write reads them
   * again when the store's count says another tab changed the queue meanwhile.
   */
  #known: { count: number; bytes: number } | undefined;

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

  /**
   * Keeps a file just added (its lock taken first), unless the queue's files would pass the byte budget. Written
   * with the other changes of the same moment, in one transaction, in a task after the caller's: never on the
   * path that starts an upload.
   */
  keep(id: string, file: File, path: string | undefined, options: UploadOptions): Promise<Persistence> {
    const record: PersistedFile = {
      id,
      file,
      path,
      options: keptOptions(options),
      addedAt: Date.now(),
      ...(options.transform ? { transformed: true } : {}),
    };
    return new Promise((resolve) => this.#change({ id, record, settle: (persistence) => resolve(persistence ?? 'unavailable') }));
  }

  /** Removes a file from the queue (done, failed, cancelled, removed) and gives its lock back; written as {@link keep} is. */
  forget(id: string): Promise<void> {
    return new Promise((resolve) => this.#change({ id, settle: () => resolve() }));
  }

  #change(change: Change): void {
    this.#changes.push(change);
    this.#schedule();
  }

  /** The next write, in a task of its own after the last one: at most {@link MOST_PER_TRANSACTION} changes each. */
  #schedule(): void {
    this.#due ??= this.#inOrder(async () => {
      await nextTask();
      this.#due = undefined;
      const batch = this.#changes.splice(0, MOST_PER_TRANSACTION);
      if (this.#changes.length > 0) this.#schedule();
      await this.#write(batch);
    });
  }

  #inOrder(work: () => Promise<void>): Promise<void> {
    const done = this.#writes.then(work);
    this.#writes = done.catch(() => {});
    return done;
  }

  /** Writes a batch of changes in one transaction (locks of the files to keep taken first), and settles each. */
  async #write(batch: Change[]): Promise<void> {
    // The last change of a file decides (a file kept then forgotten at once is never written).
    const last = new Map<string, Change>();
    for (const change of batch) last.set(change.id, change);
    const taken = new Map(
      await Promise.all(
        [...last.values()].map(async ({ id, record }) => [id, record && !this.#held.has(id) ? await tryLock(this.#lockName(id)) : undefined] as const),
      ),
    );
    const outcome = new Map<string, Persistence | 'forgotten'>();
    const written = await inStore('queue', 'readwrite', (store) => this.#apply(store, last, taken, outcome));
    for (const [id, persistence] of outcome) {
      if (written && persistence === 'kept') this.#held.set(id, { release: (this.#held.get(id)?.release ?? taken.get(id))!, size: last.get(id)!.record!.file.size });
      // A forgotten file's lock goes once its record is gone (committed): another tab never takes over a file done here.
      if (written && persistence === 'forgotten') this.#release(id);
    }
    for (const [id, release] of taken) if (release && !(written && outcome.get(id) === 'kept')) release();
    // The store failed: what this tab knew of it may be wrong.
    if (!written) this.#known = undefined;
    for (const change of batch) {
      const decided = last.get(change.id) === change && written ? outcome.get(change.id) : undefined;
      change.settle(change.record ? (decided === 'forgotten' ? undefined : decided) : undefined);
    }
  }

  /** In one transaction: the queue's count (its bytes read again if another tab changed it), then each change. */
  async #apply(
    store: IDBObjectStore,
    last: Map<string, Change>,
    taken: Map<string, ReleaseLock | undefined>,
    outcome: Map<string, Persistence | 'forgotten'>,
  ): Promise<true> {
    const done = committed(store.transaction);
    done.catch(() => {});
    const count = await request(store.count(this.#range()));
    if (this.#known?.count !== count) {
      const read = { count: 0, bytes: 0 };
      await readInPages<PersistedFile>(store, this.#range(), (records) => {
        read.count += records.length;
        for (const kept of records) read.bytes += kept.file.size;
      });
      this.#known = read;
    }
    const known = this.#known;
    for (const { id, record } of last.values()) {
      const held = this.#held.get(id);
      if (!record) {
        if (!held) continue;
        store.delete(this.#key(id));
        known.count -= 1;
        known.bytes -= held.size;
        outcome.set(id, 'forgotten');
        continue;
      }
      if (!held && !taken.get(id)) {
        outcome.set(id, 'unavailable');
        continue;
      }
      const freed = held?.size ?? 0;
      if (known.bytes - freed + record.file.size > this.#maxBytes) {
        outcome.set(id, 'over-budget');
        continue;
      }
      try {
        store.put(record, this.#key(id));
      } catch (error) {
        // DataCloneError where the engine cannot store the File: nothing of this transaction is written.
        store.transaction.abort();
        throw error;
      }
      if (!held) known.count += 1;
      known.bytes += record.file.size - freed;
      outcome.set(id, 'kept');
    }
    return done;
  }

  #release(id: string): void {
    this.#held.get(id)?.release();
    this.#held.delete(id);
  }

  /** The kept files, oldest first (read in pages: no long task at tens of thousands). */
  async list(): Promise<PersistedFile[]> {
    const files: PersistedFile[] = [];
    const read = await inStore('queue', 'readonly', async (store) => {
      await readInPages<PersistedFile>(store, this.#range(), (records) => files.push(...records));
      return true;
    });
    if (!read) return [];
    this.#known = { count: files.length, bytes: files.reduce((sum, kept) => sum + kept.file.size, 0) };
    return files.sort((a, b) => a.addedAt - b.addedAt);
  }

  /** Takes the lock of a kept file if no tab holds it; `false` when one does (it runs there). */
  async claim(kept: PersistedFile): Promise<boolean> {
    const release = await tryLock(this.#lockName(kept.id));
    if (release) this.#held.set(kept.id, { release, size: kept.file.size });
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
    this.#held.set(id, { release, size: kept.file.size });
    return kept;
  }

  /** Gives back the lock of a file this tab no longer tracks (removed while it waited) without removing it. */
  letGo(id: string): void {
    this.#release(id);
  }
}
