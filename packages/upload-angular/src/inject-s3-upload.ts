import { assertInInjectionContext, DestroyRef, inject, signal, type Signal } from '@angular/core';
import { uploadActions, UploadTracker, type AnyRoutes, type RouteName, type RouteTrackerOptions } from '@upbeam/upload-client';
import type { TrackedFile, UploadActions, UploadSummary } from '@upbeam/upload-client';

/**
 * Options of {@link injectS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal,
 * transform) and `concurrency`, the files uploaded at once (default 3).
 */
export type S3UploadOptions<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> = RouteTrackerOptions<R, N>;

/**
 * What {@link injectS3Upload} returns: the `UploadActions` of `@upbeam/upload-client` (plain functions,
 * safe to pass to a template or destructure), `setOptions`, and `files` and `summary`, read-only signals.
 */
export interface S3Upload<ServerData = unknown> extends UploadActions<ServerData> {
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * A new array at most once per animation frame (the changes between two frames come as one), in which a
   * file that did not change is the same object as before: a `@for` tracking `file.id` keeps its rows.
   */
  readonly files: Signal<readonly TrackedFile<ServerData>[]>;
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status).
   */
  readonly summary: Signal<UploadSummary>;
  /** Replaces the options; they apply to the uploads added after. */
  setOptions: (options: S3UploadOptions) => void;
}

/**
 * Uploads files from the browser straight to S3-compatible storage, `concurrency` at once, and tracks
 * their progress and the totals as Angular signals. A thin layer over `UploadTracker` of
 * `@upbeam/upload-client`: it listens to the tracker until the injector that called it is destroyed (the
 * component's, through `DestroyRef`); uploads still running then go on, unseen.
 *
 * Call it in an injection context: a field initializer or the constructor of a component, directive or
 * service. One per component gives each its own list; an `@Injectable({ providedIn: 'root' })` service
 * whose field is `injectS3Upload()` shares one list across the app.
 *
 * @throws Angular's `NG0203` error when called outside an injection context.
 *
 * @example
 * ```ts
 * import { Component } from '@angular/core';
 * import { injectS3Upload } from '@upbeam/upload-angular';
 *
 * @Component({
 *   selector: 'app-upload',
 *   template: `
 *     <input type="file" multiple (change)="upload.addFiles($any($event.target).files)" />
 *     <progress max="100" [value]="upload.summary().progress"></progress>
 *     @for (file of upload.files(); track file.id) {
 *       <p>{{ file.file.name }}: {{ file.progress }}%</p>
 *     }
 *   `,
 * })
 * export class UploadComponent {
 *   readonly upload = injectS3Upload({ concurrency: 3 });
 * }
 * ```
 */
export function injectS3Upload(options: S3UploadOptions = {}): S3Upload {
  assertInInjectionContext(injectS3Upload);
  const tracker = new UploadTracker(options);
  const files = signal(tracker.getSnapshot());
  const summary = signal(tracker.getSummary());
  const stop = tracker.subscribe(() => {
    files.set(tracker.getSnapshot());
    summary.set(tracker.getSummary());
  });
  inject(DestroyRef).onDestroy(stop);
  return {
    ...uploadActions(tracker),
    files: files.asReadonly(),
    summary: summary.asReadonly(),
    setOptions: (next) => tracker.setOptions(next),
  };
}
