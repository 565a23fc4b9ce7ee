import type { AnyRoutes, RouteName, UploadResult } from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import { nextTask } from './next-task';
import { UploadClientError } from './errors';
import type { RouteOption, RouteResultData, RouteUploadResult } from './routes';
import { newFileId } from './file-id';
import { TransferRate } from './transfer-rate';
import type { ResumeOptions, UploadOptions } from './types';
import { hashAheadFor, preloadStrategy } from './upload-file';
import { DEFAULT_CONCURRENCY, UploadQueue } from './upload-queue';
import { FrameNotifier } from './frame-notifier';
import { TrackedFiles } from './tracked-files';
import type { PersistedList, UploadPersistence } from './persistence';
import type { PersistOptions } from './persisted-queue';
import { summaryOf, type UploadSummary } from './upload-summary';
import type { FileWithPath, TrackedFile } from './tracked-file';
import { type Settle, type TrackerShared, TrackedUpload, type Uploader } from './tracked-upload';
import type { BackgroundList, BackgroundOptions, BackgroundUploads } from './background/background-uploads';
import { hasBackgroundFetch } from './background/background-fetch';

export type { Uploader } from './tracked-upload';

/** Options of {@link UploadTracker}: the defaults of every upload, the files in flight, the uploader. */
export interface UploadTrackerOptions extends UploadOptions {
  /**
   * Files uploaded at once; the others wait, `queued`, in the order added. A multipart file counts as one
   * (its parts go `queueSize` at once within it); a paused file keeps its place.
   * @default 3 (browsers open 6 connections per host: 3 single PUTs leave room for the page)
   */
  concurrency?: number;
  /** Replaces `uploadFile` (a test's stand-in, a custom transport). @default uploadFile */
  uploader?: Uploader;
  /**
   * Most files one `add` (a drop, a pick) may hold: a larger batch throws `UploadClientError`
   * `TOO_MANY_FILES` before any request, and none of it is tracked. The server cannot check it (each file
   * is prepared on its own): give it the route's `maxFiles`. Unset: no limit.
   */
  maxFiles?: number;
  /**
   * Keep the queue for after a reload or a crash: each queued and running file (the `File` itself, with its
   * path and the options that decide where it goes; never the endpoint's `headers`) is kept in IndexedDB
   * until it ends. A tracker with `persist` then restores the kept files by itself when it gets its first
   * listener (`subscribe`, which the hooks call): `restored: true`, `queued`, and uploaded again without the
   * user picking them: a multipart upload continues from its stored parts (the resume journal: `resume` is on
   * for every file of such a tracker), a single PUT is sent again whole. A kept file the browser can no longer
   * read fails with `FILE_UNREADABLE`. Files leave the store when they end (`done`, `error`, `aborted`) or are
   * removed. Each kept file is held by one tab (a Web Lock): another tab of the origin restores it as
   * `elsewhere` and takes it over only if the first tab goes.
   * On a page with sign-in, give the user's id as the scope, `{ scope: user.id }`: files are then kept under
   * it and restored (and their journal records continued) only by a tracker of the same scope, never under
   * another user's session on a shared browser profile; call `clearKeptUploads(user.id)` on sign-out.
   * `true` (or no `scope`) keeps the unscoped queue, which every unscoped tracker of the origin restores
   * whoever is signed in: for a page without sign-in. Also `{ maxBytes, name }` (see {@link PersistOptions}).
   * Read when the tracker is made (`setOptions` cannot turn it on or off, nor change its scope: make a new
   * tracker for another user). What each engine keeps: see the docs' guide "Persistence".
   * @default false
   */
  persist?: boolean | PersistOptions;
  /**
   * Uploads that go on after the tab closes: in a browser with Background Fetch (Chromium: Chrome, Edge, Opera)
   * and with `strategy: 'presigned-post'`, each file is prepared in the page and handed to the browser, which
   * sends the POST even once the page is gone and shows it in its downloads-style UI; the package's service worker
   * (`@upbeam/upload-client/service-worker.js`, served by the app at `serviceWorker`) then sends the completion
   * report, so the server's `onUploadComplete` runs with no page. Such a file shows `background: 'running'`, then
   * `'done'` or `'failed'`; a cancel calls the browser's `abort()` (too late once stored: it ends `done`). When
   * the page opens again, the tracker lists the background uploads of its endpoint that ran meanwhile (running,
   * done, failed: `restored: true`, `file` an empty stand-in with the name and type) when it gets its first
   * listener. Elsewhere (Firefox, Safari, no secure context, the worker not served, another strategy) files are
   * sent in the page as without it: {@link UploadSummary} `background` says `'unavailable'`.
   * The endpoint's `headers` of a handed-over file are kept in IndexedDB until its completion report is sent.
   * Read when the tracker is made. See the guide "Background uploads".
   * @default false
   * @example
   * new UploadTracker({ strategy: 'presigned-post', background: { serviceWorker: '/upbeam-sw.js' } });
   */
  background?: boolean | BackgroundOptions;
}

/**
 * The tracked-file list behind `useS3Upload`, framework-free: a queue that uploads many files, at most
 * `concurrency` at once, keeps each file's progress and status and the totals (speed, time left), and
 * pauses, resumes, cancels, retries and removes a file. Subscribe with {@link UploadTracker.subscribe}
 * and read {@link UploadTracker.getSnapshot} and {@link UploadTracker.getSummary} (the
 * `useSyncExternalStore` contract).
 *
 * @example
 * const tracker = new UploadTracker({ endpoint: { url: '/api/upload' }, concurrency: 3 });
 * tracker.subscribe(() => render(tracker.getSnapshot(), tracker.getSummary()));
 * tracker.add(input.files); // or: const { url } = await tracker.upload(file);
 */
export class UploadTracker<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> {
  #options: UploadTrackerOptions;
  readonly #files = new TrackedFiles();
  /** Totals of the files, computed on their first read after a change. */
  #summary: UploadSummary | undefined;
  /** Each file's owner: its life (start, pause, resume, cancel, progress, end), beside its snapshot on the list. */
  readonly #uploads = new Map<string, TrackedUpload>();
  readonly #notifier = new FrameNotifier();
  readonly #endListeners = new Set<(file: TrackedFile) => void>();
  readonly #queue: UploadQueue;
  readonly #rate = new TransferRate();
  /** With `persist`: the kept queue and its wiring to the list, loaded with `import()` when the tracker is made. */
  readonly #persistence: Promise<UploadPersistence> | undefined;
  /** With `persist`: the `resume` of every upload (`persist` itself: `true`, or its `scope` is the journal's). */
  readonly #resume: true | ResumeOptions | undefined;
  /** With `background`: the background uploads, loaded with `import()` when the tracker is made. */
  readonly #background: Promise<BackgroundUploads> | undefined;
  /** With `background`: the service worker could not be registered. */
  #backgroundFailed = false;
  /** What every file's owner shares with the tracker (and the other files). */
  readonly #shared: TrackerShared;

  /**
   * @param options - Defaults for every upload (`add(files, options)` overrides them per call), `concurrency`.
   *   Given `strategy: 'temporary-token'`, the tracker starts loading that strategy's lazy chunk at once, so that
   *   the first upload does not wait for it.
   * @throws {@link UploadClientError} `INVALID_OPTIONS` (`concurrency must be an integer of at least 1. Got 0.`)
   *   when `concurrency` is not an integer of at least 1.
   */
  constructor(options: Omit<UploadTrackerOptions, 'route'> & Partial<RouteOption<R, N>> = {}) {
    this.#options = options;
    this.#queue = new UploadQueue(options.concurrency);
    preloadStrategy(options);
    const { persist } = options;
    if (persist) {
      this.#resume = persist;
      this.#persistence = import('./tracker-persistence').then(
        ({ TrackerPersistence }) => new TrackerPersistence(persist, this.#persistedList()),
      );
    }
    const { background } = options;
    if (background) {
      this.#background = import('./background/background-uploads').then(
        ({ BackgroundUploads }) => new BackgroundUploads(background, this.#shared, this.#backgroundList()),
      );
    }
    this.#shared = {
      uploaderFor: this.#background && ((id, merged) => this.#background!.then((uploads) => uploads.uploaderFor(id, merged))),
      defaults: () => this.#options,
      resume: this.#resume,
      persistence: this.#persistence,
      queue: this.#queue,
      rate: this.#rate,
      get: (id) => this.#files.get(id),
      update: (id, change) => this.#update(id, change),
      started: () => {
        const next = this.#uploads.get(this.#queue.nextWaiting()!);
        if (next && !next.options().uploader) hashAheadFor(next.file, next.options());
      },
      ended: (file) => {
        for (const listener of this.#endListeners) queueMicrotask(() => listener(file));
      },
      refuseQueued: (route, error) => {
        for (const upload of this.#uploads.values()) if (upload.options().route === route) upload.refuse(error);
      },
    };
  }

  /**
   * Replaces the defaults (used by the React hook when its options change); a new `concurrency` applies at once,
   * and a `strategy: 'temporary-token'` starts loading that strategy's chunk (as the constructor does).
   */
  setOptions(options: UploadTrackerOptions): void {
    // The hook calls this on every render: only a strategy that changed asks for its chunk.
    const strategyChanged = options.strategy !== this.#options.strategy;
    if (strategyChanged) preloadStrategy(options);
    this.#options = options;
    this.#queue.setLimit(options.concurrency ?? DEFAULT_CONCURRENCY);
    // With `background`: whether files go to Background Fetch depends on the strategy (the summary says it).
    if (strategyChanged && options.background) this.#changed();
  }

  /**
   * Registers a listener called after changes, at most once per animation frame (every 16 ms where there
   * is none, as in Node or a worker), and less often when the listeners are slow (after a call that took
   * d ms, with the render it caused, the next comes 19 d later at the earliest, but within 1 s: the
   * listeners take about a twentieth of the thread): the changes between two calls come as one. The call
   * after the last change always comes (a finished file's `done` is never dropped).
   * Returns the unsubscribe function.
   */
  subscribe = (listener: () => void): (() => void) => {
    // With `persist`: the kept files come back on the first listener (the restore runs once).
    this.#persist((persistence) => persistence.restore());
    void this.#background?.then((uploads) => uploads.restore());
    return this.#notifier.subscribe(listener);
  };

  /**
   * Registers a listener told of each file that ends, once per end: stored (`status` `done`, with its `result`),
   * failed (`error`, with its `error`) or cancelled (`aborted`), given the file as it ended (its snapshot). A file
   * retried and ended again is told again; one removed, or dropped by `reset`, before it ends is not. Told in a
   * microtask after the end (before the `subscribe` listeners' next call): a listener that throws leaves the
   * tracker as it was. Returns the unsubscribe function.
   * @example
   * tracker.onFileEnd((file) => { if (file.status === 'done') save(file.result); });
   */
  onFileEnd = (listener: (file: TrackedFile<RouteResultData<R, N>>) => void): (() => void) => {
    const added = listener as (file: TrackedFile) => void;
    this.#endListeners.add(added);
    return () => {
      this.#endListeners.delete(added);
    };
  };

  /**
   * The current list (up to date at once, whenever the listeners hear of it): the same array until
   * something changes, and in a new array every unchanged file is the same object as before.
   */
  getSnapshot = (): readonly TrackedFile<RouteResultData<R, N>>[] =>
    this.#files.snapshot() as readonly TrackedFile<RouteResultData<R, N>>[];

  /**
   * The tracked file with this id, or `undefined` once removed (or never added): the same object until that
   * file changes. A row showing one file reads it here, and skips the changes of the other files.
   */
  getFile = (id: string): TrackedFile<RouteResultData<R, N>> | undefined => this.#files.get(id) as TrackedFile<RouteResultData<R, N>> | undefined;

  /**
   * The ids of the tracked files, in the order added: the same array until a file is added or removed (a
   * file's progress or status leaves it as it is). A list of thousands of files renders its rows from it,
   * each row reading its own file with {@link UploadTracker.getFile}, and so renders again only when the
   * list itself changes.
   */
  getIds = (): readonly string[] => this.#files.ids();

  /** Totals of the list, speed and time left: the same object until something changes. */
  getSummary = (): UploadSummary =>
    (this.#summary ??= { ...summaryOf(this.#files.totals(), this.#rate.bytesPerSecond()), ...this.#backgroundState() });

  /**
   * Tracks the files (status `queued`, progress 0, before any network call) and uploads them, at most
   * `concurrency` at once. Never rejects: a file's failure is its `status` and `error`.
   * @param files - Files, or `{ file, path }` for a file of a folder (the path is sent as `filename`).
   * @returns the new tracked files, in order (their ids).
   */
  add = (files: Iterable<File | FileWithPath>, options: UploadOptions = {}): TrackedFile<RouteResultData<R, N>>[] =>
    this.#add(files, options) as TrackedFile<RouteResultData<R, N>>[];

  /**
   * Tracks `file` and uploads it (queued behind the files in flight, see {@link UploadTracker.add}).
   * @returns `{ url, bucket, key }` of the stored object.
   * @throws as `uploadFile`: `AbortError` (`Upload aborted.`) when cancelled or removed, `UploadClientError` otherwise.
   */
  upload = (file: File, options: UploadOptions = {}): Promise<RouteUploadResult<R, N>> =>
    new Promise<UploadResult>((resolve, reject) => {
      this.#add([file], options, { resolve, reject });
    }) as Promise<RouteUploadResult<R, N>>;

  #add(files: Iterable<File | FileWithPath>, options: UploadTrackerOptions, settle?: Settle): TrackedFile[] {
    const batch = [...files];
    const maxFiles = options.maxFiles ?? this.#options.maxFiles;
    if (maxFiles !== undefined && batch.length > maxFiles) {
      throw new UploadClientError('TOO_MANY_FILES', `At most ${maxFiles} files at once; got ${batch.length}.`);
    }
    if (this.#counted() === 0) this.#rate.clear();
    const uploads = batch.map((item) => {
      const { file, path } = item instanceof Blob ? { file: item, path: undefined } : item;
      return new TrackedUpload(newFileId(), file, path, options, this.#shared, settle);
    });
    const added = uploads.map((upload) => this.#track(upload));
    this.#files.append(added);
    this.#changed();
    for (const upload of uploads) upload.queue();
    for (const upload of uploads) upload.keep();
    return added;
  }

  /** Tracks a file (its owner beside the list) and returns its first snapshot: `queued`, progress 0, and `change`. */
  #track(upload: TrackedUpload, change: Partial<TrackedFile> = {}): TrackedFile {
    this.#uploads.set(upload.id, upload);
    return upload.initial(change);
  }

  /** Cancels the file with this id (queued, running or paused), or every one not yet ended when no id is given. */
  cancel = (id?: string): void => {
    if (id !== undefined) return void this.#uploads.get(id)?.cancel();
    // One error for every queued file (see TrackedUpload.cancel). The queue lets go of its files at once (none
    // starts after this call), the running ones are aborted, and the queued ones end `aborted` in slices.
    const error = createAbortError();
    const dropped = this.#queue.dropAll();
    for (const upload of this.#uploads.values()) upload.cancel(error);
    // A file removed, or the list reset, before its slice has ended then (`TrackedUpload.cancel`, `untrack`).
    const uploads = this.#uploads;
    void endInSlices(dropped, (id) => uploads.get(id)?.cancelDropped(error));
  };

  /**
   * Uploads again a file that failed or was cancelled (`error`, `aborted`): `queued`, progress 0. A multipart
   * upload with `resume` on sends only the parts storage lacks. Does nothing for a file in any other status.
   */
  retry = (id: string): void => {
    const upload = this.#uploads.get(id);
    const status = this.#files.get(id)?.status;
    if (!upload || (status !== 'error' && status !== 'aborted')) return;
    if (this.#counted() === 0) this.#rate.clear();
    upload.retry();
  };

  /** Cancels the file with this id if it has not ended, and takes it off the list. */
  remove = (id: string): void => {
    this.cancel(id);
    this.#persist((persistence) => persistence.forget(id));
    this.#uploads.delete(id);
    if (this.#files.delete(id)) this.#changed();
  };

  /**
   * Pauses the multipart upload with this id: its parts in flight stop at once, the upload stays on storage,
   * status `paused`. A single PUT (a file under `multipartThreshold`) is not paused: it could only start
   * again from its first byte.
   */
  pause = (id: string): void => {
    this.#uploads.get(id)?.pause();
  };

  /** Resumes the paused upload with this id: it sends the parts it still lacks, status `uploading`. */
  resume = (id: string): void => {
    this.#uploads.get(id)?.resume();
  };

  /**
   * Empties the list. Queued files are cancelled (they never start); running uploads go on (cancel them
   * first to stop them); they are no longer tracked.
   */
  reset = (): void => {
    for (const upload of this.#uploads.values()) upload.untrack();
    this.#uploads.clear();
    this.#files.clear();
    this.#changed();
  };

  /** With `persist`: runs `act` on the tracker's persistence once it is loaded; without, does nothing. */
  #persist(act: (persistence: UploadPersistence) => void): void {
    void this.#persistence?.then(act);
  }

  /** With `persist`: the list as the persistence plugin reaches it. */
  #persistedList(): PersistedList {
    return {
      getIds: this.getIds,
      getFile: this.getFile,
      remove: this.remove,
      optionsOf: (id) => this.#uploads.get(id)!.options(),
      add: (files) => {
        this.#files.append(
          files.map(({ kept: { id, file, path, options }, status }) =>
            this.#track(new TrackedUpload(id, file, path, options, this.#shared), { status, restored: true, persistence: 'kept' }),
          ),
        );
        this.#changed();
      },
      change: (id, change) => {
        const upload = this.#uploads.get(id)!;
        if (change.status === 'error') upload.end(change);
        else this.#update(id, change);
        if (change.status === 'queued') upload.queue();
      },
    };
  }

  /** Files queued, uploading or paused (O(1): the list keeps its totals). */
  #counted(): number {
    const { count } = this.#files.totals();
    return count.queued + count.uploading + count.paused;
  }

  /** With `background`: what the background uploads reach of the list beside the files' shared part. */
  #backgroundList(): BackgroundList {
    return {
      add: (uploads) => {
        this.#files.append(uploads.map(({ upload, change }) => this.#track(upload, change)));
        this.#changed();
      },
      unavailable: () => {
        this.#backgroundFailed = true;
        this.#changed();
      },
    };
  }

  /** With `background`: whether files are handed to Background Fetch (`UploadSummary.background`); without, nothing. */
  #backgroundState(): Pick<UploadSummary, 'background'> {
    if (!this.#options.background) return {};
    const available = !this.#backgroundFailed && hasBackgroundFetch() && this.#options.strategy === 'presigned-post';
    return { background: available ? 'available' : 'unavailable' };
  }

  /** Replaces file `id` with a copy holding `change` (the other files keep their objects). */
  #update(id: string, change: Partial<TrackedFile>): void {
    if (this.#files.update(id, change)) this.#changed();
  }

  /** After any change: the totals are computed again when next read, and the listeners hear of it at the next frame. */
  #changed(): void {
    this.#summary = undefined;
    this.#notifier.notify();
  }
}

/**
 * Milliseconds of files ended per task by a cancel of every file (`cancel()`): 50,000 queued files each given
 * their `aborted` snapshot took 150-400 ms in one task on 2 busy cores (bench/notes/lists-at-scale.md), so they end
 * in slices, the first in the caller's task and the rest each in a task of its own; the queue no longer holds them,
 * so none starts meanwhile. A list of a few thousand ends in the caller's task.
 */
const CANCEL_SLICE_MS = 8;

/** Calls `end` for each of `ids` (files taken off the queue), CANCEL_SLICE_MS of them a task. */
async function endInSlices(ids: readonly string[], end: (id: string) => void): Promise<void> {
  let at = 0;
  for (;;) {
    const until = performance.now() + CANCEL_SLICE_MS;
    // The clock is read every 256 files: reading it for each would cost as much as the file.
    while (at < ids.length) {
      end(ids[at++]!);
      if ((at & 255) === 0 && performance.now() > until) break;
    }
    if (at >= ids.length) return;
    await nextTask();
  }
}
