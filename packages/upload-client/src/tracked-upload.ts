import type { UploadResult } from '@upbeam/upload-protocol';
import { createAbortError, isAbortError, onAbort } from './abort';
import { inFlightFull, limitRefusal, refusesTheRoute } from './limit-refusal';
import { goesMultipart } from './multipart-threshold';
import { PauseController } from './pause';
import type { UploadPersistence } from './persistence';
import type { TrackedFile } from './tracked-file';
import type { TransferRate } from './transfer-rate';
import type { ResumeOptions, UploadOptions } from './types';
import { uploadFile } from './upload-file';
import type { UploadQueue } from './upload-queue';

/** What uploads one file: `uploadFile` unless the tracker is given another (tests, a custom transport). */
export type Uploader = (file: File, options: UploadOptions) => Promise<UploadResult>;

/**
 * What a tracked upload shares with the other files of its tracker: the tracker's options, its upload queue, its
 * list, its speed, its end listeners and its persistence. The tracker makes it once; each file reaches the
 * tracker only through it.
 */
export interface TrackerShared {
  /** The tracker's options as they are now (`setOptions` replaces them): the defaults under the file's own. */
  defaults(): UploadOptions & { uploader?: Uploader };
  /** With `persist`: the `resume` of every upload (see `UploadTrackerOptions.persist`). */
  readonly resume: true | ResumeOptions | undefined;
  /** With `persist`: the tracker's persistence plugin, loaded with `import()`. */
  readonly persistence: Promise<UploadPersistence> | undefined;
  /** Runs the uploads, at most `concurrency` at once. */
  readonly queue: UploadQueue;
  /** The bytes sent by every file, for the summary's speed. */
  readonly rate: TransferRate;
  /** File `id` on the list, `undefined` once removed (or dropped by `reset`). */
  get(id: string): TrackedFile | undefined;
  /** Replaces file `id` on the list with a copy holding `change` (nothing once it is off the list). */
  update(id: string, change: Partial<TrackedFile>): void;
  /** An upload started: the next queued file's single-PUT checksum is hashed meanwhile (`hashAheadFor`). */
  started(): void;
  /** Tells the tracker's end listeners that `file` ended. */
  ended(file: TrackedFile): void;
  /**
   * A preparation of `route` was refused for a while by a limit that refuses every file of that route
   * (`refusesTheRoute`): the tracker fails its queued files of the route with `error`, without asking.
   */
  refuseQueued(route: string | undefined, error: unknown): void;
  /** With `background`: the uploader of file `id` (Background Fetch), or `undefined` to send it in the page. */
  uploaderFor?: ((id: string, options: UploadOptions) => Promise<Uploader | undefined>) | undefined;
}

/** The promise of `upload(file)`, settled by the file's first attempt. */
export interface Settle {
  resolve: (result: UploadResult) => void;
  reject: (error: unknown) => void;
}

/**
 * One file of an `UploadTracker` over its whole life: its options and path, its start (the uploader called with the
 * merged options, its pause controller and abort signal), pause, resume and cancel, its progress, its end (which
 * settles the promise of `upload(file)` once and stops listening to the caller's `signal`), and what it asks of
 * the tracker's persistence. The tracker keeps the list, the queue and the totals, and gives each file's actions to
 * its `TrackedUpload`.
 */
export class TrackedUpload {
  readonly id: string;
  readonly file: File;
  readonly path: string | undefined;
  /** The options it was added with (over the tracker's). */
  readonly #options: UploadOptions;
  readonly #shared: TrackerShared;
  /** While it runs: what cancels it and what pauses it. */
  #running: { abort: AbortController; pause: PauseController } | undefined;
  #settle: Settle | undefined;
  /** Removes the listener on `options.signal`. */
  #stopSignal: (() => void) | undefined;
  /** With `transform`: the file it made, sent again by a later start (a retry, a wait for a place), never remade. */
  #sent: File | undefined;

  constructor(id: string, file: File, path: string | undefined, options: UploadOptions, shared: TrackerShared, settle?: Settle) {
    this.id = id;
    this.file = file;
    this.path = path;
    this.#options = options;
    this.#shared = shared;
    this.#settle = settle;
  }

  /** Its first snapshot: `queued`, progress 0, and `change`. */
  initial(change: Partial<TrackedFile> = {}): TrackedFile {
    const { id, file, path } = this;
    return {
      id,
      file,
      ...(path === undefined ? {} : { path }),
      progress: 0,
      uploaded: 0,
      size: file.size,
      multipart: goesMultipart(file.size, this.options()),
      status: 'queued',
      // Set now, to `undefined`, so that the file's later copies (`{ ...file, ...change }` at its end) keep its
      // shape: a copy adding a property was a dictionary of ~450 bytes against ~100 (50,000 files cancelled).
      url: undefined,
      result: undefined,
      error: undefined,
      ...change,
    };
  }

  /** The options it is uploaded with: the tracker's, then those it was added with. */
  options(): UploadOptions & { uploader?: Uploader } {
    return { ...this.#shared.defaults(), ...this.#options };
  }

  /** Puts it in the upload queue, or cancels it at once when its `signal` has aborted. */
  queue(): void {
    const { signal } = this.options();
    if (signal?.aborted) {
      this.end({ status: 'aborted', error: createAbortError() });
      return;
    }
    this.#shared.queue.add(this.id, this);
    this.#stopSignal = onAbort(signal, () => this.cancel());
  }

  /** With `persist`: keeps it in the kept queue (just added). */
  keep(): void {
    const tracked = this.#shared.get(this.id);
    if (tracked) this.#persist((persistence) => persistence.keep(tracked, this.options()));
  }

  /** Uploads it again after a failure or a cancel: `queued`, progress 0. */
  retry(): void {
    const tracked = this.#shared.get(this.id)!;
    // With `persist`, whether it is kept is unknown again until the kept queue has it (it forgot it when it ended).
    const persistence = this.#shared.persistence ? { persistence: undefined } : {};
    this.#shared.update(this.id, { status: 'queued', progress: 0, uploaded: 0, error: undefined, ...persistence });
    this.queue();
    const options = { ...this.options(), ...(this.path === undefined ? {} : { filename: this.path }) };
    // The picked file is kept (a transform runs again on it), not the last one sent.
    this.#persist((persistence) => persistence.keep({ ...tracked, file: this.file }, options));
  }

  /** Fails it with `error` if it is queued (not started): another file of its route was refused by a limit. */
  refuse(error: unknown): void {
    if (this.#shared.queue.drop(this.id)) this.end({ status: 'error', error });
  }

  /**
   * Cancels it if it is queued, running or paused. A queued one ends with `error` (a cancel of every file gives
   * them one error: 50,000 `DOMException`s, each with its stack, took most of a second).
   */
  cancel(error?: DOMException): void {
    if (this.#running) {
      this.#running.abort.abort();
      return;
    }
    if (this.#dropped()) this.cancelDropped(error ?? createAbortError());
  }

  /**
   * Takes it off the upload queue if it waits there; true when it was waiting, or was already taken off by a cancel of
   * every file and not yet ended (still `queued` on the list: those end in slices, `UploadTracker.cancel`).
   */
  #dropped(): boolean {
    return this.#shared.queue.drop(this.id) || this.#shared.get(this.id)?.status === 'queued';
  }

  /**
   * Ends it `aborted` with `error` once the queue no longer holds it (it never starts): a queued file cancelled, or
   * one of those a cancel of every file took off the queue at once (`UploadQueue.dropAll`).
   */
  cancelDropped(error: DOMException): void {
    const tracked = this.#shared.get(this.id);
    // Ended meanwhile (cancelled on its own before its slice came).
    if (tracked && tracked.status !== 'queued') return;
    this.end({ status: 'aborted', error });
    if (!tracked) return;
    // With `persist`: a kept multipart upload (restored, or left by a failed attempt) is aborted on storage.
    const options = this.options();
    this.#persist((persistence) => persistence.abortKept(tracked, options));
  }

  /** Pauses it if it is a running multipart upload: status `paused`. */
  pause(): void {
    const running = this.#running;
    if (!running || !this.#shared.get(this.id)?.multipart || running.abort.signal.aborted) return;
    running.pause.pause();
    this.#shared.update(this.id, { status: 'paused' });
  }

  /** Resumes it if it is paused: status `uploading`. */
  resume(): void {
    const running = this.#running;
    if (!running?.pause.paused) return;
    running.pause.resume();
    this.#shared.update(this.id, { status: 'uploading' });
  }

  /**
   * Dropped by the tracker's `reset`: no longer listens to its `signal`; if queued, it never starts (its
   * `upload(file)` rejects with an `AbortError`, the kept queue forgets it); if running, it goes on untracked.
   */
  untrack(): void {
    this.#stopSignal?.();
    this.#stopSignal = undefined;
    if (this.#running || !this.#dropped()) return;
    this.#settle?.reject(createAbortError());
    this.#persist((persistence) => persistence.forget(this.id));
  }

  /** Ends it with `change`, and settles the promise of `upload(file)` (its first attempt only). */
  end(change: Partial<TrackedFile>): void {
    this.#stopSignal?.();
    this.#stopSignal = undefined;
    this.#shared.update(this.id, change);
    this.#persist((persistence) => persistence.forget(this.id));
    const ended = this.#shared.get(this.id);
    if (ended && ended.status === change.status) this.#shared.ended(ended);
    const settle = this.#settle;
    this.#settle = undefined;
    if (change.result) settle?.resolve(change.result);
    else settle?.reject(change.error);
  }

  /** Uploads it: the job the queue starts when a place is free (`UploadQueue`'s `Job`). */
  run(): Promise<void> {
    return this.#start();
  }

  async #start(): Promise<void> {
    const tracked = this.#shared.get(this.id);
    if (!tracked) return;
    const merged = this.options();
    const running = { abort: new AbortController(), pause: merged.pauseController ?? new PauseController() };
    this.#running = running;
    this.#shared.update(this.id, { status: 'uploading' });
    this.#shared.started();
    const { resume } = this.#shared;
    let file = this.file;
    try {
      const { uploaderFor } = this.#shared;
      const upload = this.#shared.defaults().uploader ?? (uploaderFor && (await uploaderFor(this.id, merged))) ?? uploadFile;
      // Transformed here, once (a cancel meanwhile aborts its signal): the list shows the size and the
      // multipart of the file sent, and the uploader gets it without `transform`.
      if (merged.transform) {
        const { transformFile, sentFile } = await import('./transform-file');
        file = this.#sent ??= await transformFile(file, merged.transform, running.abort.signal);
        this.#shared.update(this.id, sentFile(file, merged));
      }
      const result = await upload(file, {
        ...merged,
        transform: undefined,
        // A kept multipart upload continues from its journal after a reload (its scope's journal only).
        ...(resume && { resume }),
        ...(this.path === undefined ? {} : { filename: this.path }),
        signal: running.abort.signal,
        pauseController: running.pause,
        onProgress: (progress) => {
          this.#progress(progress.uploaded);
          merged.onProgress?.(progress);
        },
        onRetry: (event) => {
          // A rate limit (or the uploads in flight) frees in `delayMs`: the files behind wait as long, not
          // each asking to be refused.
          if (limitRefusal(event.error)) this.#shared.queue.holdUntil(Date.now() + event.delayMs);
          merged.onRetry?.(event);
        },
      });
      this.#running = undefined;
      this.end({ status: 'done', url: result.url, result, progress: 100, uploaded: file.size });
    } catch (error) {
      this.#running = undefined;
      // The server's uploads in flight are full and files of this tracker hold places: it waits for one to end.
      if (inFlightFull(error) && this.#shared.queue.yieldPlace(this.id, this)) {
        this.#shared.update(this.id, { status: 'queued', progress: 0, uploaded: 0 });
        return;
      }
      this.end({ status: isAbortError(error) ? 'aborted' : 'error', error });
      if (refusesTheRoute(error)) this.#shared.refuseQueued(merged.route, error);
      throw error;
    }
  }

  /** Records its bytes acknowledged or in flight (from `onProgress`; they fall back when a request fails). */
  #progress(uploaded: number): void {
    const tracked = this.#shared.get(this.id);
    if (!tracked) return;
    if (uploaded > tracked.uploaded) this.#shared.rate.add(uploaded - tracked.uploaded);
    this.#shared.update(this.id, { uploaded, progress: tracked.size === 0 ? 100 : (uploaded / tracked.size) * 100 });
  }

  /** With `persist`: runs `act` on the tracker's persistence once it is loaded; without, does nothing. */
  #persist(act: (persistence: UploadPersistence) => void): void {
    void this.#shared.persistence?.then(act);
  }
}
