/**
 * What a tracker with `persist` does beside its list (see `UploadTrackerOptions.persist`): it keeps each file
 * added or retried in the kept queue, forgets it when it ends or is removed, restores the kept files when it
 * gets its first listener (`restore-kept.ts`), and aborts the kept multipart upload of a file cancelled while
 * queued (`abort-kept.ts`); a clear of its scope (`clear-kept.ts`) cancels and removes its files. Loaded with `import()`, with the kept queue, by a tracker
 * with `persist` only (and by `clearKeptUploads`): a tracker without it never downloads any of this.
 */
import { abortKeptUpload } from './abort-kept';
import { reachedByClears, type Clearable } from './clear-kept';
import { PersistedQueue, type PersistOptions } from './persisted-queue';
import { restoreKept } from './restore-kept';
import type { PersistedList, UploadPersistence } from './persistence';
import type { UploadOptions } from './types';
import type { TrackedFile } from './tracked-file';

const ENDED: readonly TrackedFile['status'][] = ['done', 'error', 'aborted'];

/** `clearKeptUploads` loads this chunk, not one of its own. */
export { clearKept } from './clear-kept';

/** The kept queue of one tracker, wired to its list; see the module's comment. */
export class TrackerPersistence implements UploadPersistence, Clearable {
  readonly #queue: PersistedQueue;
  readonly #list: PersistedList;
  #restoring = false;

  constructor(settings: true | PersistOptions, list: PersistedList) {
    this.#queue = new PersistedQueue(settings);
    this.#list = list;
    reachedByClears(this);
  }

  /** The scope of its kept queue (see `PersistOptions.scope`). */
  get scope(): string | undefined {
    return this.#queue.scope;
  }

  /** Cancels every file of the list and takes it off (a clear of its scope: `clearKeptUploads`). */
  clear(): void {
    for (const id of [...this.#list.getIds()]) this.#list.remove(id);
  }

  keep(tracked: TrackedFile, options: UploadOptions): void {
    void this.#queue.keep(tracked.id, tracked.file, tracked.path, options).then((persistence) => {
      const now = this.#list.getFile(tracked.id);
      if (now && !ENDED.includes(now.status)) this.#list.change(tracked.id, { persistence });
    });
  }

  forget(id: string): void {
    void this.#queue.forget(id);
  }

  restore(): void {
    if (this.#restoring) return;
    this.#restoring = true;
    void restoreKept(this.#queue, this.#list);
  }

  abortKept(tracked: TrackedFile, options: UploadOptions & { uploader?: unknown }): void {
    if (!tracked.multipart || options.uploader) return;
    void abortKeptUpload(tracked.file, options, this.#queue.scope);
  }
}
