import type { UploadResult } from '@upbeam/upload-protocol';
import { nanoid } from 'nanoid';
import { isAbortError, onAbort } from './abort';
import { usesMultipart } from './multipart-threshold';
import { PauseController } from './pause';
import type { UploadOptions } from './types';
import { uploadFile } from './upload-file';

/**
 * Where a tracked upload stands: `uploading`, `paused` (a multipart upload between `pause(id)` and
 * `resume(id)`), then `done`, `error` or `aborted`.
 */
export type TrackedFileStatus = 'uploading' | 'paused' | 'done' | 'error' | 'aborted';

/** A running upload: what cancels it and what pauses it. */
interface Running {
  abort: AbortController;
  pause: PauseController;
  /** Whether it goes multipart (only a multipart upload can pause). */
  multipart: boolean;
}

/** One file in the tracked list (SPEC 3). Snapshots are immutable: a change makes a new object. */
export interface TrackedFile {
  /** Generated id (nanoid, 21 characters); pass it to `cancel`. */
  id: string;
  /** The picked file. */
  file: File;
  /** Percent sent, 0 to 100. */
  progress: number;
  /** Bytes sent. */
  uploaded: number;
  /** File size in bytes. */
  size: number;
  /** Whether it goes multipart (at or above `multipartThreshold`): only then can it be paused. */
  multipart: boolean;
  /** `uploading` from the moment the file is picked (`paused` between pause and resume), then `done`, `error` or `aborted`. */
  status: TrackedFileStatus;
  /** Object URL once `done`. */
  url?: string;
  /** Why it ended, when `error` or `aborted`. */
  error?: unknown;
}

/**
 * The tracked-file list behind `useS3Upload`, framework-free: starts uploads, keeps each file's
 * progress, pauses, resumes and cancels. Subscribe with {@link UploadTracker.subscribe} and read
 * {@link UploadTracker.getSnapshot} (the `useSyncExternalStore` contract).
 *
 * @example
 * const tracker = new UploadTracker({ endpoint: { url: '/api/upload' } });
 * tracker.subscribe(() => render(tracker.getSnapshot()));
 * const { url } = await tracker.upload(file);
 */
export class UploadTracker {
  #options: UploadOptions;
  #files: readonly TrackedFile[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #running = new Map<string, Running>();

  /** @param options - Defaults for every upload; `upload(file, options)` overrides them per call. */
  constructor(options: UploadOptions = {}) {
    this.#options = options;
  }

  /** Replaces the per-upload defaults (used by the React hook when its options change). */
  setOptions(options: UploadOptions): void {
    this.#options = options;
  }

  /** Registers a listener called after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The current list, the same array until something changes. */
  getSnapshot = (): readonly TrackedFile[] => this.#files;

  /**
   * Tracks `file` (progress 0, before any network call) and uploads it.
   * @returns `{ url, bucket, key }` of the stored object.
   * @throws as `uploadFile`: `AbortError` (`Upload aborted.`) when cancelled, `UploadClientError` otherwise.
   */
  upload = async (file: File, options: UploadOptions = {}): Promise<UploadResult> => {
    const id = nanoid();
    const merged = { ...this.#options, ...options };
    const running: Running = {
      abort: new AbortController(),
      pause: merged.pauseController ?? new PauseController(),
      multipart: usesMultipart(file.size, merged.multipartThreshold),
    };
    const stop = onAbort(merged.signal, () => running.abort.abort());
    this.#running.set(id, running);
    const { multipart } = running;
    this.#set([...this.#files, { id, file, progress: 0, uploaded: 0, size: file.size, multipart, status: 'uploading' }]);
    try {
      const result = await uploadFile(file, {
        ...merged,
        signal: running.abort.signal,
        pauseController: running.pause,
        onProgress: (progress) => {
          this.#update(id, progress);
          merged.onProgress?.(progress);
        },
      });
      this.#update(id, { status: 'done', url: result.url });
      return result;
    } catch (error) {
      this.#update(id, { status: isAbortError(error) ? 'aborted' : 'error', error });
      throw error;
    } finally {
      stop();
      this.#running.delete(id);
    }
  };

  /** Cancels the upload with this id (paused or not), or every running upload when no id is given. */
  cancel = (id?: string): void => {
    for (const [key, running] of this.#running) if (id === undefined || id === key) running.abort.abort();
  };

  /**
   * Pauses the multipart upload with this id: its parts in flight stop at once, the upload stays on storage,
   * status `paused`. A single PUT (a file under `multipartThreshold`) is not paused: it could only start
   * again from its first byte.
   */
  pause = (id: string): void => {
    const running = this.#running.get(id);
    if (!running?.multipart || running.abort.signal.aborted) return;
    running.pause.pause();
    this.#update(id, { status: 'paused' });
  };

  /** Resumes the paused upload with this id: it sends the parts it still lacks, status `uploading`. */
  resume = (id: string): void => {
    const running = this.#running.get(id);
    if (!running?.pause.paused) return;
    running.pause.resume();
    this.#update(id, { status: 'uploading' });
  };

  /** Empties the list. Running uploads go on (cancel them first to stop them); they are no longer tracked. */
  reset = (): void => {
    this.#set([]);
  };

  #update(id: string, change: Partial<TrackedFile>): void {
    if (!this.#files.some((tracked) => tracked.id === id)) return;
    this.#set(this.#files.map((tracked) => (tracked.id === id ? { ...tracked, ...change } : tracked)));
  }

  #set(files: readonly TrackedFile[]): void {
    this.#files = files;
    for (const listener of this.#listeners) listener();
  }
}
