/**
 * The IndexedDB database of resume and kept queues, `upbeam-resume` (background uploads have their own), and its stores:
 * `uploads` (the resume journal, one record per unfinished multipart upload) and `queue` (the files of a
 * tracker with `persist`, see `persisted-queue.ts`). Every access goes through {@link inStore}, which
 * never throws: a browser without IndexedDB (private mode of some browsers, a server render) or with a full
 * disk keeps nothing.
 */

import { databaseOpener, request } from './indexed-db';

export { request };

const DATABASE = 'upbeam-resume';
/** Version 1 held `uploads` only; version 2 adds `queue`. */
const VERSION = 2;

/** The object stores of the database. */
export type BrowserStore = 'uploads' | 'queue';
const STORES: readonly BrowserStore[] = ['uploads', 'queue'];

/** Records a paged read takes per request: the page's thread reads (clones) them in one task, a few milliseconds. */
const PAGE = 500;

/**
 * Reads the records of `range` in pages of {@link PAGE} (each page's result is one task of the page's thread,
 * where one `getAll` of tens of thousands of records would hold it for hundreds of milliseconds), within the
 * transaction of `store`, calling `each` with every page's records and keys (in key order).
 */
export function readInPages<T>(store: IDBObjectStore, range: IDBKeyRange, each: (records: T[], keys: IDBValidKey[]) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const next = (from: IDBKeyRange) => {
      const keys = store.getAllKeys(from, PAGE);
      const records = store.getAll(from, PAGE) as IDBRequest<T[]>;
      keys.onerror = records.onerror = () => reject(keys.error ?? records.error);
      records.onsuccess = () => {
        each(records.result, keys.result);
        const last = keys.result.at(-1);
        if (keys.result.length < PAGE || last === undefined) return resolve();
        next(IDBKeyRange.bound(last, range.upper, true, range.upperOpen));
      };
    };
    next(range);
  });
}

const openDatabase = databaseOpener(DATABASE, VERSION, (db) => {
  for (const name of STORES) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
});

/**
 * Runs `act` in a transaction on the store and returns what its request gives; `undefined` when IndexedDB
 * is missing or failed (never throws).
 */
export async function inStore<T>(
  name: BrowserStore,
  mode: IDBTransactionMode,
  act: (store: IDBObjectStore) => IDBRequest<T> | Promise<T>,
): Promise<T | undefined> {
  try {
    const db = await openDatabase();
    const store = db.transaction(name, mode).objectStore(name);
    const pending = act(store);
    return await (pending instanceof Promise ? pending : request(pending));
  } catch {
    return undefined;
  }
}
