/**
 * One file of a tracker's list, as its listeners read it ({@link TrackedFile}, SPEC 3), and its status. Apart from
 * the tracker so that what reads a tracked file (the list, the persistence plugin, the totals) needs no tracker.
 */
import type { UploadResult } from '@upbeam/upload-protocol';
import type { Persistence } from './persisted-queue';

/**
 * Where a tracked upload stands: `queued` (waiting for a place among the files in flight), `uploading`,
 * `paused` (a multipart upload between `pause(id)` and `resume(id)`), then `done`, `error` or `aborted`
 * (cancelled by the user or by the `signal`). `elsewhere`: a file restored by a tracker with `persist` that
 * another tab of the origin is uploading; this tab takes it over (`queued`) only if that tab goes first.
 */
export type TrackedFileStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'error' | 'aborted' | 'elsewhere';

/**
 * One file in the tracked list (SPEC 3). Snapshots are immutable: a change makes a new object for the
 * changed file only; an unchanged file is the same object from one snapshot to the next.
 */
export interface TrackedFile<ServerData = unknown> {
  /** Generated id (nanoid, 21 characters); pass it to `cancel`, `retry`, `remove`. */
  id: string;
  /** The picked file; with `transform`, the file sent once it is made (when the upload starts). */
  file: File;
  /** Path inside a dropped or picked folder (`photos/2024/a.jpg`), sent as `filename`; absent for a lone file. */
  path?: string;
  /** `uploaded` in percent of `size`, 0 to 100. */
  progress: number;
  /**
   * Bytes storage acknowledged or in flight; a failed or cancelled file shows what storage kept (0 for a
   * single PUT, its stored parts for a kept multipart upload).
   */
  uploaded: number;
  /** File size in bytes (with `transform`, the size of the file sent once it is made). */
  size: number;
  /** Whether it goes multipart (at or above `multipartThreshold`): only then can it be paused. */
  multipart: boolean;
  /** `queued` until a place is free, `uploading` (`paused` between pause and resume), then `done`, `error` or `aborted`. */
  status: TrackedFileStatus;
  /** Object URL once `done`. */
  url?: string;
  /** The whole result once `done`: `{ url, bucket, key }` and what the server adds to it. */
  result?: UploadResult<ServerData>;
  /** Why it ended, when `error` or `aborted`. */
  error?: unknown;
  /** `true` for a file a tracker with `persist` found again after a reload or a crash (not picked in this page). */
  restored?: boolean;
  /**
   * With `persist`: whether the browser keeps the file for after a reload (`'kept'`, `'over-budget'`,
   * `'unavailable'`; see {@link Persistence}); unset until known, and without `persist`.
   */
  persistence?: Persistence;
  /**
   * With `background` (see `UploadTrackerOptions.background`): the file was handed to the browser's Background
   * Fetch, which sends it even after the page is closed: `'running'`, then `'done'` (stored, the completion report
   * sent by the service worker) or `'failed'`. Unset for a file sent in the page.
   */
  background?: 'running' | 'done' | 'failed';
}

/** A file and the path it had inside a dropped or picked folder (sent as `filename`, see {@link TrackedFile.path}). */
export interface FileWithPath {
  file: File;
  /** `photos/2024/a.jpg`; absent for a file dropped or picked alone. */
  path?: string;
}
