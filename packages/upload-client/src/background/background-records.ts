/**
 * The records of background uploads (`UploadTrackerOptions.background`), in the IndexedDB database
 * `upbeam-background`, store `uploads`, one per Background Fetch (its id is the tracked file's id). The page writes
 * one before it hands a file over; the service worker reads it to send the completion report and writes the
 * outcome into it; the page lists them when it opens again and deletes each once it has shown how it ended.
 * Read by the service worker's bundle too: it imports only types and `indexed-db.ts` (which imports nothing).
 */
import type { UploadResult } from '@upbeam/upload-protocol';
import { databaseOpener, request } from '../indexed-db';

const DATABASE = 'upbeam-background';
const VERSION = 1;
const STORE = 'uploads';

/** The completion report (`_upload.complete`) as the page would send it: the worker sends exactly this. */
export interface CompletionRequest {
  /** The preparation endpoint, absolute. */
  url: string;
  /** The endpoint's headers (`endpoint.headers`) and `Content-Type: application/json`. */
  headers: Record<string, string>;
  /** The JSON body: the preparation's fields and `_upload: { strategy, complete: { key, receipt } }`. */
  body: string;
}

/** How a background upload ended, as the worker recorded it. */
export type BackgroundOutcome =
  | { status: 'done'; result: UploadResult }
  | { status: 'failed'; message: string; httpStatus?: number; code?: string }
  | { status: 'aborted' };

/** One background upload. */
export interface BackgroundRecord {
  /** The Background Fetch id, also the tracked file's id. */
  id: string;
  /** The endpoint's URL (absolute): a tracker lists the records of its own endpoint only. */
  endpoint: string;
  /** The file's name (or its folder path), type and size in bytes: the list shows them without the file. */
  name: string;
  type: string;
  size: number;
  /** The object as it will be stored (`url` without the result of the completion hook). */
  result: UploadResult;
  /** The completion report to send once stored; absent when the server wants none (no `receipt`). */
  complete?: CompletionRequest;
  /** The page that started it (opened again when the user clicks the browser's notification). */
  page: string;
  /** When it was handed over (ms since the epoch). */
  started: number;
  /** Set by the worker when it ended. */
  outcome?: BackgroundOutcome;
}

const open = databaseOpener(DATABASE, VERSION, (db) => {
  if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
});

async function inStore<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  const transaction = db.transaction(STORE, mode);
  // A write counts once committed (the worker may be stopped right after).
  const committed = new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
  const result = await request(act(transaction.objectStore(STORE)));
  await committed;
  return result;
}

/** The record of Background Fetch `id`, `undefined` when there is none. */
export const readRecord = (id: string): Promise<BackgroundRecord | undefined> => inStore('readonly', (store) => store.get(id));

/** Every record (the worker's and the pages'), in id order. */
export const readRecords = (): Promise<BackgroundRecord[]> => inStore('readonly', (store) => store.getAll());

/** Writes (or replaces) a record. */
export const writeRecord = async (record: BackgroundRecord): Promise<void> => {
  await inStore('readwrite', (store) => store.put(record));
};

/** Deletes the record of `id` (nothing when there is none). */
export const deleteRecord = async (id: string): Promise<void> => {
  await inStore('readwrite', (store) => store.delete(id));
};
