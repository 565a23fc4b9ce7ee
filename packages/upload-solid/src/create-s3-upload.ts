import { uploadActions, UploadTracker, type AnyRoutes, type RouteName, type RouteTrackerOptions } from '@upbeam/upload-client';
import type { TrackedFile, UploadActions, UploadSummary } from '@upbeam/upload-client';
import { createComputed, createSignal, getOwner, on, onCleanup, untrack } from 'solid-js';

/**
 * Options of {@link createS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal) and
 * `concurrency`, the files uploaded at once (default 3).
 */
export type S3UploadOptions<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> = RouteTrackerOptions<R, N>;

/**
 * What {@link createS3Upload} returns: the `UploadActions` of `@upbeam/upload-client` (plain functions,
 * safe to destructure), `setOptions`, and `files` and `summary`, accessors of signals (Solid's `Accessor`): called in JSX, a
 * `createMemo` or a `createEffect`, they update them as uploads move (once per animation frame at most); called
 * anywhere, they give the state now (the files `addFiles` just added included). Safe to destructure too.
 */
export interface S3Upload<ServerData = unknown> extends UploadActions<ServerData> {
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * A new array at most once per animation frame (the changes between two frames come as one), in which a
   * file that did not change is the same object as before. A file that changed is a new object: render the
   * list with `<Index>` (a row per position, kept while its file changes), not `<For>` (a new row for it).
   */
  readonly files: () => readonly TrackedFile<ServerData>[];
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status).
   */
  readonly summary: () => UploadSummary;
  /** Replaces the options; they apply to the uploads added after. */
  setOptions: (options: S3UploadOptions) => void;
}

/**
 * Uploads files from the browser straight to S3-compatible storage, `concurrency` at once, and tracks
 * their progress and the totals as Solid signals. A thin layer over `UploadTracker` of
 * `@upbeam/upload-client`: it listens to the tracker from its creation, and stops when its owner (the
 * component or `createRoot` it was created in) is disposed; uploads in flight go on. Created outside any
 * owner (a module shared by several components), it listens for the page's lifetime.
 *
 * @param options - Plain options, or an accessor of them (e.g. `() => ({ strategy: strategy() })`): a change
 *   applies to the uploads added after it, as `setOptions` does.
 *
 * @example
 * import { Index } from 'solid-js';
 * import { createS3Upload } from '@upbeam/upload-solid';
 *
 * function Uploads() {
 *   const upload = createS3Upload({ concurrency: 3 });
 *   return (
 *     <>
 *       <input type="file" multiple onChange={(event) => upload.addFiles(event.currentTarget.files ?? [])} />
 *       <progress value={upload.summary().progress} max="100" />
 *       <Index each={upload.files()}>{(file) => <progress value={file().progress} max="100" />}</Index>
 *     </>
 *   );
 * }
 */
export function createS3Upload(options: S3UploadOptions | (() => S3UploadOptions) = {}): S3Upload {
  const read = typeof options === 'function' ? options : () => options;
  const tracker = new UploadTracker(untrack(read));
  if (typeof options === 'function') createComputed(on(read, (next) => tracker.setOptions(next), { defer: true }));
  // A signal of the tracker's changes, told at most once per animation frame: `files` and `summary` read the
  // tracker itself, so that a read outside any effect (just after `addFiles`) is never a frame late.
  const [changed, change] = createSignal(undefined, { equals: false });
  const stop = tracker.subscribe(change);
  const files = () => (changed(), tracker.getSnapshot());
  const summary = () => (changed(), tracker.getSummary());
  if (getOwner()) onCleanup(stop);
  return { ...uploadActions(tracker), files, summary, setOptions: (next) => tracker.setOptions(next) };
}
