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
import { KeptLocks } from './kept-locks';

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
  /** The Web Lock the tab that keeps it holds (`kept-locks.ts`); absent from an older version's records: the file's own. */
  lock?: string;
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

/** Restored files a claim holds per task (`claimAll`): a few microseconds each. */
const HELD_PER_TASK = 1000;

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
  readonly #maxBytes: number;
  /** The scope given (see {@link PersistOptions.scope}). */
  readonly scope: string | undefined;
  /** The files this tab holds, per id: the lock it holds them under, and their size (what forgetting one frees of the budget). */
  readonly #held = new Map<string, { lock: string; size: number }>();
  readonly #locks: KeptLocks;
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
    this.#locks = new KeptLocks(`upbeam-queue:${name}`);
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

  /** Writes a batch of changes in one transaction (one new lock taken first for the files to keep), and settles each. */
  async #write(batch: Change[]): Promise<void> {
    // The last change of a file decides (a file kept then forgotten at once is never written).
    const last = new Map<string, Change>();
    for (const change of batch) last.set(change.id, change);
    const lock = [...last.values()].some(({ id, record }) => record && !this.#held.has(id)) ? await this.#locks.fresh() : undefined;
    const outcome = new Map<string, Persistence | 'forgotten'>();
    const written = await inStore('queue', 'readwrite', (store) => this.#apply(store, last, lock, outcome));
    for (const [id, persistence] of outcome) {
      if (!written) break;
      if (persistence === 'kept' && !this.#held.has(id)) {
        this.#held.set(id, { lock: lock!, size: last.get(id)!.record!.file.size });
        this.#locks.hold(lock!);
      }
      // A forgotten file's lock goes once its record is gone (committed): another tab never takes over a file done here.
      if (persistence === 'forgotten') this.#release(id);
    }
    // A new lock that holds no file (none fitted, or the store failed) goes at once.
    if (lock) {
      this.#locks.hold(lock);
      this.#locks.drop(lock);
    }
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
    lock: string | undefined,
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
      const under = held?.lock ?? lock;
      if (!under) {
        outcome.set(id, 'unavailable');
        continue;
      }
      const freed = held?.size ?? 0;
      if (known.bytes - freed + record.file.size > this.#maxBytes) {
        outcome.set(id, 'over-budget');
        continue;
      }
      try {
        store.put({ ...record, lock: under }, this.#key(id));
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
    const held = this.#held.get(id);
    if (!held) return;
    this.#held.delete(id);
    this.#locks.drop(held.lock);
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

  /** The lock a kept file's tab holds it under. */
  #lockOf(kept: PersistedFile): string {
    return kept.lock ?? this.#locks.ofFile(kept.id);
  }

  /**
   * Takes the locks of kept files that no tab holds, each lock asked for once, and holds its files here
   * {@link HELD_PER_TASK} a task: a file per promise made 50,000 continuations in one task of 163 ms on a restore
   * (bench/notes/persist-scale.md).
   * @returns per file of `kept`, in order, whether this tab holds it now (`false`: another tab does, it runs there).
   */
  async claimAll(kept: readonly PersistedFile[]): Promise<boolean[]> {
    const locks = [...new Set(kept.map((file) => this.#lockOf(file)))];
    const granted = new Map(await Promise.all(locks.map(async (lock) => [lock, await this.#locks.claim(lock)] as const)));
    const claimed: boolean[] = [];
    for (const [index, file] of kept.entries()) {
      if (index > 0 && index % HELD_PER_TASK === 0) await nextTask();
      const lock = this.#lockOf(file);
      claimed.push(granted.get(lock)!);
      if (!granted.get(lock)) continue;
      this.#locks.hold(lock);
      this.#held.set(file.id, { lock, size: file.file.size });
    }
    return claimed;
  }

  /**
   * Waits for the tab that holds a kept file to give it up, takes its lock, and reads it again.
   * @returns the file, or `undefined` when that tab finished it (it left the queue); its lock is then given back.
   */
  async takeOver(kept: PersistedFile): Promise<PersistedFile | undefined> {
    const lock = this.#lockOf(kept);
    await this.#locks.wait(lock);
    this.#locks.hold(lock);
    this.#held.set(kept.id, { lock, size: kept.file.size });
    const now = await inStore('queue', 'readonly', (store) => store.get(this.#key(kept.id)) as IDBRequest<PersistedFile | undefined>);
    if (!now) this.#release(kept.id);
    return now;
  }

  /** Gives back the lock of a file this tab no longer tracks (removed while it waited) without removing it. */
  letGo(id: string): void {
    this.#release(id);
  }
}
