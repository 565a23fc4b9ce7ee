/**
 * The clear of what the browser keeps for later (`clearKeptUploads`), of one scope or of every one: the
 * trackers of that scope, in this tab and in the others of the origin, cancel their files and empty their
 * lists; the files a tracker with `persist` keeps leave IndexedDB and their multipart uploads are aborted on
 * storage (`abort-kept.ts`); the resume journal's records of that scope are removed. Part of the chunk of a
 * tracker with `persist` (`tracker-persistence.ts`), so that a clear loads no code of its own.
 */
import { abortKeptUpload } from './abort-kept';
import { inStore, request } from './browser-database';
import { scopeOfKey, scopeQueueRange, type PersistedFile } from './persisted-queue';
import { resumeLockName, scopeRange, type ResumeJournalKey } from './resume-journal';
import { tryLock } from './web-lock';

/** A tracker with `persist`, as a clear of its scope reaches it. */
export interface Clearable {
  /** Its scope; `undefined` for the unscoped queue, which only a clear of every scope reaches. */
  readonly scope: string | undefined;
  /** Cancels its files and takes them off its list. */
  clear(): void;
}

/** What a clear tells the trackers: every scope (`all`), or `scope`. */
interface ClearMessage {
  all: boolean;
  scope?: string | undefined;
}

/** The channel on which a tab tells the other tabs of the origin of a clear. */
const CHANNEL = 'upbeam-kept-uploads';

/** The trackers with `persist` of this tab, held weakly: a tracker no page uses any more can still go. */
const trackers = new Set<WeakRef<Clearable>>();
/** This tab's end of {@link CHANNEL}, opened with its first tracker with `persist`. */
let channel: BroadcastChannel | undefined;

/** Lets the clears of its scope (made in this tab or another) reach `tracker`. */
export function reachedByClears(tracker: Clearable): void {
  trackers.add(new WeakRef(tracker));
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<ClearMessage>) => clearTrackers(event.data);
}

function clearTrackers({ all, scope }: ClearMessage): void {
  for (const held of trackers) {
    const tracker = held.deref();
    if (!tracker) trackers.delete(held);
    else if (all || tracker.scope === scope) tracker.clear();
  }
}

/** Tells the other tabs of the origin (a channel does not hear its own messages: this tab's trackers are told apart). */
function tellOtherTabs(message: ClearMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  if (channel) {
    channel.postMessage(message);
    return;
  }
  const once = new BroadcastChannel(CHANNEL);
  once.postMessage(message);
  once.close();
}

/** Removes the records of `range` (every record when `undefined`) and returns them with their keys, in one transaction. */
function takeRecords(store: IDBObjectStore, range: IDBKeyRange | undefined): Promise<{ key: IDBValidKey; kept: PersistedFile }[]> {
  return new Promise((resolve, reject) => {
    const taken: { key: IDBValidKey; kept: PersistedFile }[] = [];
    const cursor = store.openCursor(range);
    cursor.onerror = () => reject(cursor.error);
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (!at) return resolve(taken);
      taken.push({ key: at.primaryKey, kept: at.value as PersistedFile });
      at.delete();
      at.continue();
    };
  });
}

/**
 * Clears the kept uploads of `scope`, or of every scope (the unscoped ones too) when `undefined`; see the
 * module's comment. A journal record whose upload runs (its Web Lock is held) is left to that upload, which
 * removes it when it ends (the trackers were told to cancel theirs). The parts of a record without a kept
 * file (an `uploadFile` with `resume`, a failed file kept for a retry) stay on storage until the bucket's
 * lifecycle rule. Never throws.
 */
export async function clearKept(scope: string | undefined): Promise<void> {
  const message: ClearMessage = { all: scope === undefined, scope };
  clearTrackers(message);
  tellOtherTabs(message);
  // Out of the queue first: from now on no tab restores them.
  const taken = (await inStore('queue', 'readwrite', (store) => takeRecords(store, scope === undefined ? undefined : scopeQueueRange(scope)))) ?? [];
  await Promise.all(taken.map(({ key, kept }) => abortKeptUpload(kept.file, kept.options, scopeOfKey(key))));
  const journal = scope === undefined ? undefined : scopeRange(scope);
  const keys = (await inStore('uploads', 'readonly', (store) => store.getAllKeys(journal))) ?? [];
  await Promise.all(
    keys.map(async (key) => {
      const release = await tryLock(resumeLockName(key as ResumeJournalKey));
      if (!release) return;
      await inStore('uploads', 'readwrite', (store) => request(store.delete(key)));
      release();
    }),
  );
}
