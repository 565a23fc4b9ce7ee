/**
 * The page of `bench:persist-scale` (`persist-scale.ts`): an `UploadTracker` with `persist: true` given many small
 * files, as a folder drop hands them over (batches of {@link BATCH} files, one task each), then the page reloaded
 * and the kept queue restored. No request leaves the page: the tracker's `uploader` is a stand-in that never
 * settles (the 3 files it starts stay `uploading`, every other file stays `queued` and kept), so that what is
 * timed is the tracker and its kept queue, not a network. The page counts IndexedDB transactions (by wrapping
 * `IDBDatabase.prototype.transaction`) and watches the main thread's long tasks.
 */
import { UploadTracker } from '@upbeam/upload-client';
import { longTasksSince, type LongTasks } from '../upload/long-tasks';

/** Files handed to `add` at once: the folder walk's batch. */
const BATCH = 1000;

/** What one phase measured in the page. */
export interface PersistPhase {
  /** Milliseconds from the first `add` (or from the restoring tracker's first listener) to the end of the phase. */
  ms: number;
  /** Milliseconds of the `add` calls themselves (the page's thread is held that long), summed: keep phase only. */
  addMs?: number;
  /** Milliseconds from the start to the first file shown `kept` (keep), or to the first restored file on the list (restore). */
  firstMs: number;
  /** Files kept (keep), or restored onto the list (restore). */
  files: number;
  /** IndexedDB transactions opened in the phase, by mode. */
  transactions: { readonly: number; readwrite: number };
  longTasks: LongTasks;
}

declare global {
  interface Window {
    /** Adds `count` files of `bytes` each (one task a batch); resolves once all of them show `kept` (or after `timeoutMs`). */
    benchPersistKeep(run: { count: number; bytes: number; timeoutMs: number; persist: boolean }): Promise<PersistPhase>;
    /** A new tracker with `persist: true` restores the kept queue; resolves once `count` files are on its list and the restore's work is done. */
    benchPersistRestore(run: { count: number; timeoutMs: number }): Promise<PersistPhase>;
    /** Empties the kept queue (between runs). */
    benchPersistClear(): Promise<void>;
    benchTracker?: UploadTracker;
  }
}

const transactions = { readonly: 0, readwrite: 0 };
const openTransaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
  if (args[1] === 'readwrite') transactions.readwrite += 1;
  else transactions.readonly += 1;
  return openTransaction.apply(this, args);
} as IDBDatabase['transaction'];

const never = () => new Promise<never>(() => {});
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function counted(): { readonly: number; readwrite: number } {
  return { ...transactions };
}

window.benchPersistKeep = async ({ count, bytes, timeoutMs, persist }) => {
  const content = new Uint8Array(bytes).map((_, index) => index & 255);
  const files = Array.from({ length: count }, (_, index) => new File([content], `file-${index}.bin`, { type: 'application/octet-stream' }));
  const tracker = new UploadTracker({ persist, uploader: never, endpoint: { url: '/api/upbeam' } });
  window.benchTracker = tracker;
  tracker.subscribe(() => {});
  // The tracker's chunk of persistence loads with `import()`: let it load before the clock starts, as it does while the user picks.
  await sleep(200);
  const before = counted();
  const started = performance.now();
  let addMs = 0;
  for (let at = 0; at < count; at += BATCH) {
    const addStarted = performance.now();
    tracker.add(files.slice(at, at + BATCH));
    addMs += performance.now() - addStarted;
    await nextTask();
  }
  let firstMs = -1;
  let kept = 0;
  const ids = tracker.getIds();
  for (;;) {
    kept = 0;
    for (const id of ids) if (tracker.getFile(id)?.persistence !== undefined) kept += 1;
    if (kept > 0 && firstMs < 0) firstMs = performance.now() - started;
    if (!persist || kept === count || performance.now() - started > timeoutMs) break;
    await sleep(20);
  }
  const ms = performance.now() - started;
  const after = counted();
  return {
    ms,
    addMs,
    firstMs,
    files: persist ? tracker.getIds().filter((id) => tracker.getFile(id)?.persistence === 'kept').length : count,
    transactions: { readonly: after.readonly - before.readonly, readwrite: after.readwrite - before.readwrite },
    longTasks: longTasksSince(started),
  };
};

window.benchPersistRestore = async ({ count, timeoutMs }) => {
  const before = counted();
  const started = performance.now();
  const tracker = new UploadTracker({ persist: true, uploader: never, endpoint: { url: '/api/upbeam' } });
  window.benchTracker = tracker;
  tracker.subscribe(() => {});
  let firstMs = -1;
  let whole = -1;
  // The restore's work is done when no IndexedDB transaction opened for 2 s after the list is whole (long tasks are watched until then).
  let quietSince = performance.now();
  let lastSeen = 0;
  for (;;) {
    const onList = tracker.getIds().length;
    if (onList > 0 && firstMs < 0) firstMs = performance.now() - started;
    if (onList >= count && whole < 0) whole = performance.now() - started;
    const seen = transactions.readonly + transactions.readwrite;
    if (seen !== lastSeen) {
      lastSeen = seen;
      quietSince = performance.now();
    }
    if ((whole >= 0 && performance.now() - Math.max(quietSince, started + whole) > 2000) || performance.now() - started > timeoutMs) break;
    await sleep(20);
  }
  const after = counted();
  return {
    ms: whole < 0 ? performance.now() - started : whole,
    firstMs,
    files: tracker.getIds().length,
    transactions: { readonly: after.readonly - before.readonly, readwrite: after.readwrite - before.readwrite },
    longTasks: longTasksSince(started),
  };
};

window.benchPersistClear = () =>
  new Promise<void>((resolve, reject) => {
    const deleting = indexedDB.deleteDatabase('upbeam-resume');
    deleting.onsuccess = () => resolve();
    deleting.onerror = () => reject(deleting.error);
    deleting.onblocked = () => resolve();
  });
