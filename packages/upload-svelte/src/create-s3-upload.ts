import { uploadActions, UploadTracker, type AnyRoutes, type RouteName, type RouteTrackerOptions } from '@upbeam/upload-client';
import type { TrackedFile, UploadActions, UploadSummary } from '@upbeam/upload-client';
import { createSubscriber } from 'svelte/reactivity';

/**
 * Options of {@link createS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal) and
 * `concurrency`, the files uploaded at once (default 3).
 */
export type S3UploadOptions<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> = RouteTrackerOptions<R, N>;

/**
 * What {@link createS3Upload} returns: the `UploadActions` of `@upbeam/upload-client` (plain functions,
 * safe to destructure), `setOptions`, and `files` and `summary`, reactive reads (in markup, `$derived` and
 * `$effect` they update as uploads move). Read `files` and `summary` through the object (`upload.files`): a
 * destructured value does not update.
 */
export interface S3Upload<ServerData = unknown> extends UploadActions<ServerData> {
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * A new array at most once per animation frame (the changes between two frames come as one), in which a
   * file that did not change is the same object as before: a row component given it is not rendered again.
   */
  readonly files: readonly TrackedFile<ServerData>[];
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status).
   */
  readonly summary: UploadSummary;
  /** Replaces the options; they apply to the uploads added after. */
  setOptions: (options: S3UploadOptions) => void;
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
  return {
    ...uploadActions(tracker),
    get files() {
      subscribe();
      return tracker.getSnapshot();
    },
    get summary() {
      subscribe();
      return tracker.getSummary();
    },
    setOptions: (next) => tracker.setOptions(next),
  };
}
