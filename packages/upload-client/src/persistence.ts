/**
 * The one interface between a tracker with `persist` and its persistence plugin (`tracker-persistence.ts`,
 * loaded with `import()`): the tracker calls the plugin ({@link UploadPersistence}); the plugin reaches the tracker
 * only through its list ({@link PersistedList}).
 */
import type { PersistedFile } from './persisted-queue';
import type { TrackedFile } from './tracked-file';
import type { UploadOptions } from './types';

/**
 * The persistence plugin of a tracker with `persist`, as the tracker calls it (the way tus-js-client's uploads
 * call their injected `urlStorage`): the tracker loads it with `import()` and tells it what happens to its files.
 */
export interface UploadPersistence {
  /** Keeps a file just added or retried, and shows whether it is kept (unless it ended meanwhile). */
  keep(tracked: TrackedFile, options: UploadOptions): void;
  /** Takes file `id` out of the kept queue (it ended or was removed). */
  forget(id: string): void;
  /** Puts the kept files back on the list and uploads them (see `restore-kept.ts`); once, later calls do nothing. */
  restore(): void;
  /**
   * A multipart file cancelled (or removed) while queued: aborts the upload its journal keeps on storage (a
   * restored file's, or one a failed attempt left for a retry), as the cancel of a running upload does.
   * Not for a tracker with its own `uploader`, whose uploads keep no journal of ours.
   */
  abortKept(tracked: TrackedFile, options: UploadOptions & { uploader?: unknown }): void;
}

/**
 * The tracker's list as its persistence plugin reaches it, the plugin's one way back to the tracker: it reads
 * the list as any listener does (`getFile`, `getIds`), and changes it only as the user could (`remove`) or by
 * the two writes of a restore (`add`, `change`).
 */
export interface PersistedList {
  /** The tracked file with this id, or `undefined` when the list does not hold it. */
  getFile(id: string): TrackedFile | undefined;
  /** The ids of the files on the list. */
  getIds(): readonly string[];
  /** The options file `id` is uploaded with (the tracker's, then the file's own). */
  optionsOf(id: string): UploadOptions;
  /** Puts restored files on the list (`restored`, `kept`), each `queued` or `elsewhere`, none in the upload queue yet. */
  add(files: readonly { kept: PersistedFile; status: 'queued' | 'elsewhere' }[]): void;
  /**
   * Replaces file `id` with a copy holding `change`; a change to `queued` also puts it in the upload queue, one to
   * `error` ends it (as a failed upload ends).
   */
  change(id: string, change: Partial<TrackedFile>): void;
  /** Cancels file `id` if it has not ended and takes it off the list (the tracker's `remove`). */
  remove(id: string): void;
}
