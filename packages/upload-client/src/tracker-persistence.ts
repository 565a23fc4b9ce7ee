/**
 * What a tracker with `persist` does beside its list (see `UploadTrackerOptions.persist`): it keeps each file
 * added or retried in the kept queue, forgets it when it ends or is removed, restores the kept files when it
 * gets its first listener (a restored multipart file shows its stored parts' bytes at once), and aborts the
 * kept multipart upload of a file cancelled while queued (`abort-kept.ts`); a clear of its scope
 * (`clear-kept.ts`) cancels and removes its files. Loaded with `import()`, with the kept queue, by a tracker
 * with `persist` only (and by `clearKeptUploads`): a tracker without it never downloads any of this.
 */
import { abortKeptUpload } from './abort-kept';
import { reachedByClears, type Clearable } from './clear-kept';
import { storedBytes } from './part-math';
import { PersistedQueue, type PersistedFile, type PersistOptions } from './persisted-queue';
import { restoreKept } from './restore-kept';
import { openResumeJournal, resumeJournalId } from './resume-journal';
import type { UploadOptions } from './types';
import type { TrackedFile } from './tracked-file';
import type { TrackedFileStatus } from './tracked-file';

/** What the tracker lets its persistence do to its list. */
export interface PersistenceHost {
  /** The ids of the files on the list. */
  getIds(): readonly string[];
  /** The tracked file with this id, or `undefined` when the list does not hold it. */
  getFile(id: string): TrackedFile | undefined;
  /** Puts restored files on the list (`restored`, `kept`), each with its status. */
  add(files: readonly { kept: PersistedFile; status: TrackedFileStatus }[]): void;
  /** The options file `id` is uploaded with (the tracker's, then the file's own). */
  optionsOf(id: string): UploadOptions;
  /** Replaces file `id` with a copy holding `change`. */
  update(id: string, change: Partial<TrackedFile>): void;
  /** Puts file `id` in the upload queue. */
  enqueue(id: string): void;
  /** Ends file `id` with `change` (`error`). */
  end(id: string, change: Partial<TrackedFile>): void;
  /** Takes file `id` off the list. */
  remove(id: string): void;
}

const ENDED: readonly TrackedFileStatus[] = ['done', 'error', 'aborted'];

/** `clearKeptUploads` loads this chunk, not one of its own. */
export { clearKept } from './clear-kept';

/** The kept queue of one tracker, wired to its list; see the module's comment. */
export class TrackerPersistence implements Clearable {
  readonly #queue: PersistedQueue;
  readonly #host: PersistenceHost;
  #restoring = false;

  constructor(settings: true | PersistOptions, host: PersistenceHost) {
    this.#queue = new PersistedQueue(settings);
    this.#host = host;
    reachedByClears(this);
  }

  /** The scope of its kept queue (see `PersistOptions.scope`). */
  get scope(): string | undefined {
    return this.#queue.scope;
  }

  /** Cancels every file of the list and takes it off (a clear of its scope: `clearKeptUploads`). */
  clear(): void {
    for (const id of [...this.#host.getIds()]) this.#host.remove(id);
  }

  /** Keeps a file just added or retried, and shows whether it is kept (unless it ended meanwhile). */
  keep(tracked: TrackedFile, options: UploadOptions): void {
    void this.#queue.keep(tracked.id, tracked.file, tracked.path, options).then((persistence) => {
      const now = this.#host.getFile(tracked.id);
      if (now && !ENDED.includes(now.status)) this.#host.update(tracked.id, { persistence });
    });
  }

  /** Takes file `id` out of the kept queue (it ended or was removed). */
  forget(id: string): void {
    void this.#queue.forget(id);
  }

  /** Puts the kept files back on the list and uploads them (see `restore-kept.ts`); once, later calls do nothing. */
  restore(): void {
    if (this.#restoring) return;
    this.#restoring = true;
    const host = this.#host;
    void restoreKept(this.#queue, {
      tracks: (id) => host.getFile(id) !== undefined,
      add: (files) => {
        host.add(files);
        for (const { kept } of files) void this.#showStoredParts(kept.id);
      },
      start: (id) => {
        host.update(id, { status: 'queued' });
        host.enqueue(id);
      },
      fail: (id, error) => host.end(id, { status: 'error', error }),
      drop: (id) => host.remove(id),
    });
  }

  /**
   * Shows the bytes a restored multipart file has on storage (its journal record's whole parts) while it
   * waits: it would show 0 % until it runs. A file already running shows what its upload reports.
   */
  async #showStoredParts(id: string): Promise<void> {
    const tracked = this.#host.getFile(id);
    if (!tracked?.multipart) return;
    const options = this.#host.optionsOf(id);
    const record = await openResumeJournal(resumeJournalId(tracked.file, options, this.#queue.scope)).read();
    const now = this.#host.getFile(id);
    if (!record || !now || (now.status !== 'queued' && now.status !== 'elsewhere') || now.uploaded > 0) return;
    const uploaded = storedBytes(record.parts, now.size, record.partSize);
    this.#host.update(id, { uploaded, progress: now.size === 0 ? 100 : (uploaded / now.size) * 100 });
  }

  /**
   * A multipart file cancelled (or removed) while queued: aborts the upload its journal keeps on storage (a
   * restored file's, or one a failed attempt left for a retry), as the cancel of a running upload does.
   * Not for a tracker with its own `uploader`, whose uploads keep no journal of ours.
   */
  abortKept(tracked: TrackedFile, options: UploadOptions & { uploader?: unknown }): void {
    if (!tracked.multipart || options.uploader) return;
    void abortKeptUpload(tracked.file, options, this.#queue.scope);
  }
}
