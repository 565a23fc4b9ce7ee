import { uploadActions, UploadTracker, type AnyRoutes, type RouteName, type RouteTrackerOptions } from '@upbeam/upload-client';
import type { TrackedFile, UploadActions, UploadSummary } from '@upbeam/upload-client';
import { getCurrentScope, isRef, onScopeDispose, shallowRef, toValue, watch, type MaybeRefOrGetter, type ShallowRef } from 'vue';

/**
 * Options of {@link useS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal) and
 * `concurrency`, the files uploaded at once (default 3).
 */
export type UseS3UploadOptions<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> = RouteTrackerOptions<R, N>;

/**
 * What {@link useS3Upload} returns: the `UploadActions` of `@upbeam/upload-client` (plain functions,
 * safe to destructure) and two read-only refs.
 */
export interface UseS3Upload<ServerData = unknown> extends UploadActions<ServerData> {
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * A new array at most once per animation frame (the changes between two frames come as one), in which a
   * file that did not change is the same object as before: a row component given it is not rendered again.
   */
  files: Readonly<ShallowRef<readonly TrackedFile<ServerData>[]>>;
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status).
   */
  summary: Readonly<ShallowRef<UploadSummary>>;
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
  return { ...uploadActions(tracker), files, summary };
}
