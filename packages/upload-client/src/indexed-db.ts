/**
 * IndexedDB's requests as promises, and one database opened once per page (or worker), for the client's two
 * databases: `upbeam-resume` (browser-database.ts) and `upbeam-background` (background/background-records.ts).
 * Imports nothing: the background service worker's bundle reads it too.
 */

/** The result of an IndexedDB request, as a promise. */
export function request<T>(pending: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    pending.onsuccess = () => resolve(pending.result);
    pending.onerror = () => reject(pending.error);
  });
}

/**
 * An opener of database `name` at `version`, which opens it on its first call and gives the same connection
 * after; `upgrade` creates the stores a newer version adds. When a tab with a newer version asks to upgrade, the
 * connection is closed (this page opens it again on its next call); a failed open is tried again next time.
 */
export function databaseOpener(name: string, version: number, upgrade: (db: IDBDatabase) => void): () => Promise<IDBDatabase> {
  let database: Promise<IDBDatabase> | undefined;
  return () => {
    if (!database) {
      const opening = indexedDB.open(name, version);
      opening.onupgradeneeded = () => upgrade(opening.result);
      database = request(opening).then((db) => {
        db.onversionchange = () => {
          db.close();
          database = undefined;
        };
        return db;
      });
      database.catch(() => (database = undefined));
    }
    return database;
  };
}
