import type { AnyRoutes, RouteName, UploadResult } from '@upbeam/upload-protocol';
import type { RouteOption, RouteResultData } from './routes';
import type { FileWithPath, TrackedFile } from './tracked-file';
import type { UploadOptions } from './types';
import type { UploadTracker, UploadTrackerOptions } from './upload-tracker';

/**
 * The options of a binding's upload (`useS3Upload`, `createS3Upload`): those of {@link UploadTracker}, with
 * the {@link RouteOption} of `R` (one of its route names, required, with typed routes; any string, or none,
 * without).
 */
export type RouteTrackerOptions<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> = Omit<UploadTrackerOptions, 'route'> &
  RouteOption<R, N>;

/**
 * What every binding's upload (`useS3Upload` of React and Vue, `createS3Upload` of Svelte) does, under the
 * names the bindings give them: plain functions of its {@link UploadTracker}, safe to destructure. The
 * bindings add the state (`files`, `summary`), held as each framework holds state.
 */
export interface UploadActions<ServerData = unknown> {
  /**
   * Tracks the file (progress 0 at once), queues it behind the files in flight and uploads it; resolves to
   * `{ url, bucket, key }`. Rejects with an `AbortError` DOMException (`Upload aborted.`) when cancelled,
   * and with an `UploadClientError` when the endpoint or storage refuses.
   */
  uploadToS3: (file: File, options?: UploadOptions) => Promise<UploadResult<ServerData>>;
  /**
   * Tracks and uploads many files, `concurrency` at once; never rejects (a failure is the file's `status`
   * and `error`). Pass `{ file, path }` for a folder's files (what a drop zone's `onDrop` gives): the path is
   * sent as `filename`.
   * @returns the new tracked files (their ids).
   */
  addFiles: (files: Iterable<File | FileWithPath>, options?: UploadOptions) => TrackedFile<ServerData>[];
  /** Empties `files`: queued files never start; running uploads go on untracked (`cancel()` first to stop them). */
  resetFiles: () => void;
  /** Cancels the file with this id (queued, running or paused), or all of them. */
  cancel: (id?: string) => void;
  /** Uploads again a file that failed or was cancelled (queued, from 0 or, with `resume`, the parts it lacks). */
  retry: (id: string) => void;
  /** Cancels the file with this id if it has not ended and takes it off `files`. */
  remove: (id: string) => void;
  /**
   * Pauses the multipart upload with this id (a file at or above `multipartThreshold`): its parts in flight
   * stop, status `paused`. A single PUT is not paused.
   */
  pause: (id: string) => void;
  /** Resumes the paused upload with this id: only the parts it lacks are sent. */
  resume: (id: string) => void;
}

/**
 * The {@link UploadActions} of `tracker`: its methods under the bindings' names (`upload` is `uploadToS3`,
 * `add` is `addFiles`, `reset` is `resetFiles`).
 *
 * @example
 * const tracker = new UploadTracker({ concurrency: 3 });
 * const { addFiles, cancel } = uploadActions(tracker);
 */
export function uploadActions<R extends AnyRoutes, N extends RouteName<R>>(tracker: UploadTracker<R, N>): UploadActions<RouteResultData<R, N>> {
  const { upload: uploadToS3, add: addFiles, reset: resetFiles, cancel, retry, remove, pause, resume } = tracker;
  return { uploadToS3, addFiles, resetFiles, cancel, retry, remove, pause, resume } as UploadActions<RouteResultData<R, N>>;
}
