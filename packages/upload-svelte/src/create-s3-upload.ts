import {
  UploadTracker,
  type FileWithPath,
  type TrackedFile,
  type UploadOptions,
  type UploadSummary,
  type UploadTrackerOptions,
} from '@upbeam/upload-client';
import type { UploadResult } from '@upbeam/upload-protocol';
import { createSubscriber } from 'svelte/reactivity';

/**
 * Options of {@link createS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal) and
 * `concurrency`, the files uploaded at once (default 3).
 */
export type S3UploadOptions = UploadTrackerOptions;

/**
 * What {@link createS3Upload} returns: `files` and `summary` are reactive reads (in markup, `$derived` and
 * `$effect` they update as uploads move); the actions are plain functions, safe to destructure. Read
 * `files` and `summary` through the object (`upload.files`): a destructured value does not update.
 */
export interface S3Upload {
  /**
   * Tracks the file (progress 0 at once), queues it behind the files in flight and uploads it; resolves to
   * `{ url, bucket, key }`. Rejects with an `AbortError` DOMException (`Upload aborted.`) when cancelled,
   * and with an `UploadClientError` when the endpoint or storage refuses.
   */
  uploadToS3: (file: File, options?: UploadOptions) => Promise<UploadResult>;
  /**
   * Tracks and uploads many files, `concurrency` at once; never rejects (a failure is the file's `status`
   * and `error`). Pass `{ file, path }` for a folder's files (what `createDropZone` gives): the path is sent as `filename`.
   * @returns the new tracked files (their ids).
   */
  addFiles: (files: Iterable<File | FileWithPath>, options?: UploadOptions) => TrackedFile[];
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * A new array at most once per animation frame (the changes between two frames come as one), in which a
   * file that did not change is the same object as before: a row component given it is not rendered again.
   */
  readonly files: readonly TrackedFile[];
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status).
   */
  readonly summary: UploadSummary;
  /** Replaces the options; they apply to the uploads added after. */
  setOptions: (options: S3UploadOptions) => void;
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
 * Uploads files from the browser straight to S3-compatible storage, `concurrency` at once, and tracks
 * their progress and the totals, as Svelte 5 reactive state (runes). A thin layer over `UploadTracker` of
 * `@upbeam/upload-client`: it listens to the tracker only while something reactive reads `files` or
 * `summary`. Create it in a component's `<script>` or in a module shared by several.
 *
 * @example
 * <script lang="ts">
 *   import { createS3Upload } from '@upbeam/upload-svelte';
 *   const upload = createS3Upload({ concurrency: 3 });
 * </script>
 *
 * <input type="file" multiple onchange={(event) => upload.addFiles(event.currentTarget.files ?? [])} />
 * <progress value={upload.summary.progress} max="100"></progress>
 * {#each upload.files as file (file.id)}
 *   <progress value={file.progress} max="100"></progress>
 * {/each}
 */
export function createS3Upload(options: S3UploadOptions = {}): S3Upload {
  const tracker = new UploadTracker(options);
  const subscribe = createSubscriber((update) => tracker.subscribe(update));
  const { upload: uploadToS3, add: addFiles, reset: resetFiles, cancel, retry, remove, pause, resume } = tracker;
  return {
    get files() {
      subscribe();
      return tracker.getSnapshot();
    },
    get summary() {
      subscribe();
      return tracker.getSummary();
    },
    setOptions: (next) => tracker.setOptions(next),
    uploadToS3,
    addFiles,
    resetFiles,
    cancel,
    retry,
    remove,
    pause,
    resume,
  };
}
