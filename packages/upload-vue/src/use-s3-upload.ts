import {
  UploadTracker,
  type FileWithPath,
  type TrackedFile,
  type UploadOptions,
  type UploadSummary,
  type UploadTrackerOptions,
} from '@upbeam/upload-client';
import type { UploadResult } from '@upbeam/upload-protocol';
import { getCurrentScope, isRef, onScopeDispose, shallowRef, toValue, watch, type MaybeRefOrGetter, type ShallowRef } from 'vue';

/**
 * Options of {@link useS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal) and
 * `concurrency`, the files uploaded at once (default 3).
 */
export type UseS3UploadOptions = UploadTrackerOptions;

/** What {@link useS3Upload} returns: two read-only refs and the actions (plain functions, safe to destructure). */
export interface UseS3Upload {
  /**
   * Tracks the file (progress 0 at once), queues it behind the files in flight and uploads it; resolves to
   * `{ url, bucket, key }`. Rejects with an `AbortError` DOMException (`Upload aborted.`) when cancelled,
   * and with an `UploadClientError` when the endpoint or storage refuses.
   */
  uploadToS3: (file: File, options?: UploadOptions) => Promise<UploadResult>;
  /**
   * Tracks and uploads many files, `concurrency` at once; never rejects (a failure is the file's `status`
   * and `error`). Pass `{ file, path }` for a folder's files (what `useDropZone` gives): the path is sent as `filename`.
   * @returns the new tracked files (their ids).
   */
  addFiles: (files: Iterable<File | FileWithPath>, options?: UploadOptions) => TrackedFile[];
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * A new array at most once per animation frame (the changes between two frames come as one), in which a
   * file that did not change is the same object as before: a row component given it is not rendered again.
   */
  files: Readonly<ShallowRef<readonly TrackedFile[]>>;
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status).
   */
  summary: Readonly<ShallowRef<UploadSummary>>;
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
 * their progress and the totals. A thin Vue layer over `UploadTracker` of `@upbeam/upload-client`: call it
 * in `setup` (or an effect scope); it stops listening when the scope ends (uploads in flight go on).
 *
 * @param options - Plain options, or a getter or `shallowRef` of them (`ref` would unwrap the class instances
 *   they may hold, `signal`, `pauseController`): a change applies to the uploads added after it.
 *
 * @example
 * <script setup lang="ts">
 * import { useS3Upload } from '@upbeam/upload-vue';
 * const { addFiles, files, summary, cancel } = useS3Upload({ concurrency: 3 });
 * </script>
 * <template>
 *   <input type="file" multiple @change="addFiles(($event.target as HTMLInputElement).files ?? [])" />
 *   <progress :value="summary.progress" max="100" />
 *   <progress v-for="f in files" :key="f.id" :value="f.progress" max="100" />
 * </template>
 */
export function useS3Upload(options: MaybeRefOrGetter<UseS3UploadOptions> = {}): UseS3Upload {
  const tracker = new UploadTracker(toValue(options));
  if (isRef(options) || typeof options === 'function') {
    watch(() => toValue(options), (next) => tracker.setOptions(next), { deep: true });
  }
  const files = shallowRef(tracker.getSnapshot());
  const summary = shallowRef(tracker.getSummary());
  const stop = tracker.subscribe(() => {
    files.value = tracker.getSnapshot();
    summary.value = tracker.getSummary();
  });
  if (getCurrentScope()) onScopeDispose(stop);
  const { upload: uploadToS3, add: addFiles, reset: resetFiles, cancel, retry, remove, pause, resume } = tracker;
  return { uploadToS3, addFiles, files, summary, resetFiles, cancel, retry, remove, pause, resume };
}
