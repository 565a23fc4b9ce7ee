'use client';
import {
  uploadActions,
  UploadTracker,
  type TrackedFile,
  type UploadActions,
  type UploadSummary,
  type UploadTrackerOptions,
  type RouteResultData,
  type RouteTrackerOptions,
} from '@upbeam/upload-client';
import type { AnyRoutes, RouteName } from '@upbeam/upload-protocol';
import { useEffect, useReducer, useRef, useState, type ReactElement } from 'react';
import { createFileInput, type FileInputProps } from './file-input';
import { useGrowingList } from './use-growing-list';
import { useTransitionPacer } from './use-transition-pacer';
import { useTrackerView } from './use-tracker-view';
import type { TrackedFileStore } from './use-tracked-file';
import type { TrackedIdsStore } from './use-tracked-ids';

/**
 * Options of {@link useS3Upload}: defaults for every upload (endpoint, strategy, onProgress, signal) and
 * `concurrency`, the files uploaded at once (default 3).
 */
export type UseS3UploadOptions<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>> = RouteTrackerOptions<R, N>;

/** What {@link useS3Upload} returns: the `UploadActions` of `@upbeam/upload-client` and the state, held in React. */
export interface UseS3Upload<ServerData = unknown> extends UploadActions<ServerData> {
  /**
   * Tracked files, in the order added: `{ id, file, path?, progress (percent), uploaded (bytes), size (bytes),
   * status, url?, result?, error? }`; `status` is `queued`, `uploading`, `paused`, `done`, `error` or `aborted`.
   * Rendered in a React transition, with `summary` (the same moment of both): React renders a long list in
   * slices of about 5 ms and the page and the uploads run between them. One snapshot at a time, each drawn
   * before the next renders; while files upload, after a render that cost `d` ms (its slices, its commit and
   * the style and layout of its frame), the next comes `19 d` ms later at the earliest, within 1 s (the list takes
   * about a twentieth of the main thread, the uploads keep the rest); once none is queued or uploading, the last
   * comes at once. A file that did not change is the same object as in the previous array, so a `memo` row
   * given the file skips it. A batch of many files added at once joins it some rows a frame: 100 first, then
   * as many as fit in about 25 ms of work beside what the rows already shown cost (20 to 1,000 a frame), so
   * that no render mounts thousands of rows in one task; `addFiles` returns them all at once, and `summary`
   * counts them all.
   */
  files: readonly TrackedFile<ServerData>[];
  /**
   * The tracker behind the hook, the same object for the component's life: a list reads the files' ids with
   * {@link useTrackedIds} (it renders again only when a file is added or removed) and gives them to rows that
   * read their own file with {@link useTrackedFile} (a row then renders only when its file changes).
   * `tracker.onFileEnd(listener)` tells each file's end (stored, failed, cancelled) once per end, whatever the
   * renders between them; it returns the unsubscribe function (see `UploadTracker.onFileEnd`).
   */
  tracker: TrackedFileStore<ServerData> &
    TrackedIdsStore & { onFileEnd: (listener: (file: TrackedFile<ServerData>) => void) => () => void };
  /**
   * Totals of `files` that are queued, running or done: `{ uploaded, size (bytes), progress (percent),
   * bytesPerSecond, secondsLeft, count }` (count per status). Updated with `files`, in the same renders.
   */
  summary: UploadSummary;
  /** A hidden `<input type="file">`: `onChange` gets the first picked `File`, `onFiles` all (with `multiple`). Render it once. */
  FileInput: (props: FileInputProps) => ReactElement;
  /** Opens the browser's file dialog of `FileInput`. */
  openFileDialog: () => void;
}

/**
 * Uploads files from the browser straight to S3-compatible storage, `concurrency` at once, and tracks
 * their progress and the totals. A thin layer over `UploadTracker` of `@upbeam/upload-client`.
 *
 * With routes, give the server's `typeof routes` (`import type`: no server code reaches the page): the
 * route name is checked, and `<typeof routes, 'avatar'>` types `result.serverData` as that route's
 * `onUploadComplete` returns (with `<typeof routes>` alone it is the union of every route's).
 *
 * @example
 * // import type { routes } from '../server/upload-routes';
 * const avatar = useS3Upload<typeof routes, 'avatar'>({ route: 'avatar' });
 * const { avatarKey } = (await avatar.uploadToS3(file)).serverData!;
 *
 * @example
 * function Uploader() {
 *   const { FileInput, openFileDialog, addFiles, files, summary } = useS3Upload({ concurrency: 3 });
 *   return (
 *     <>
 *       <FileInput multiple onFiles={(picked) => addFiles(picked)} />
 *       <button onClick={openFileDialog}>Upload files</button>
 *       <progress value={summary.progress} max={100} />
 *       {files.map((f) => <Row key={f.id} file={f} />)}
 *     </>
 *   );
 * }
 * // Memoized: with many files, a row renders again only when its own file changes.
 * const Row = memo(function Row({ file }: { file: TrackedFile }) {
 *   return <progress value={file.progress} max={100} />;
 * });
 */
export function useS3Upload<R extends AnyRoutes = AnyRoutes, N extends RouteName<R> = RouteName<R>>(
  ...args: string extends RouteName<R> ? [options?: UseS3UploadOptions<R, N>] : [options: UseS3UploadOptions<R, N>]
): UseS3Upload<RouteResultData<R, N>>;
export function useS3Upload(options: UploadTrackerOptions = {}): UseS3Upload {
  const [tracker] = useState(() => new UploadTracker(options));
  useEffect(() => tracker.setOptions(options));
  const schedule = useTransitionPacer();
  const view = useTrackerView(tracker, schedule);
  const files = useGrowingList(view.files, schedule);
  const { summary } = view;
  const [{ FileInput, openFileDialog }] = useState(createFileInput);
  useRenderAgainWhenEmptied(files.length === 0);
  return { ...uploadActions(tracker), files, tracker, summary, FileInput, openFileDialog };
}

/**
 * React keeps two copies of a component (the fiber drawn last and its alternate, the one drawn before), each with
 * the state and props of its render: once the list empties (`resetFiles`), the copy from the render before still
 * holds the previous files, every `File` with them (and so do the children given them as props, such as
 * `<Uploader upload={...}>`), until the component renders again. One more render, once the empty list is
 * committed, lets them go (issue 47: ~230 B a file stayed after Clear list).
 */
function useRenderAgainWhenEmptied(empty: boolean): void {
  const [, renderAgain] = useReducer((renders: number) => renders + 1, 0);
  const hadFiles = useRef(false);
  useEffect(() => {
    if (empty && hadFiles.current) renderAgain();
    hadFiles.current = !empty;
  }, [empty]);
}
