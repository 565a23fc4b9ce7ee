import type { UploadProgress } from './progress';
import type { TrackedFileStatus } from './tracked-file';

/**
 * Progress of the whole list: `uploaded` and `size` (bytes) and `progress` (percent) count the files
 * queued, uploading, paused and done; a file that failed or was cancelled leaves the totals (its bytes will
 * not arrive), and comes back when retried; a file another tab uploads (`elsewhere`) is not counted.
 */
export interface UploadSummary extends UploadProgress {
  /** Upload speed over the last 5 seconds, bytes per second; 0 when nothing is being sent. */
  bytesPerSecond: number;
  /** Seconds until the counted files are sent at the current speed; `undefined` when the speed is 0. */
  secondsLeft: number | undefined;
  /** Files per status. */
  count: Record<TrackedFileStatus, number>;
  /**
   * With the tracker's `background` option: `'available'` when its files are handed to the browser's Background
   * Fetch (they go on after the tab closes), `'unavailable'` when they are sent in the page (no Background Fetch:
   * Firefox, Safari; no secure context; the service worker not served; a strategy other than `presigned-post`).
   * Absent without the option.
   */
  background?: 'available' | 'unavailable';
}

/** The fields of a tracked file the summary reads. */
interface Counted {
  status: TrackedFileStatus;
  uploaded: number;
  size: number;
}

/** Whether a file's bytes count in the totals: it is on its way or stored (by this tab). */
const counts = (file: Counted) => file.status !== 'error' && file.status !== 'aborted' && file.status !== 'elsewhere';

/** What the summary is made of, kept up to date file by file (`TrackedFiles`): O(1) to read at 50,000 files. */
export interface SummaryTotals {
  /** Files per status. */
  count: Record<TrackedFileStatus, number>;
  /** Bytes acknowledged (or in flight) and bytes in all, of the counted files (see {@link UploadSummary}). */
  uploaded: number;
  size: number;
  /** Files on the list. */
  files: number;
}

/** Empty totals. */
export const noTotals = (): SummaryTotals => ({
  count: { queued: 0, uploading: 0, paused: 0, done: 0, error: 0, aborted: 0, elsewhere: 0 },
  uploaded: 0,
  size: 0,
  files: 0,
});

/** Adds `file` to `totals` (`sign` 1), or takes it off (`sign` -1). */
export function countFile(totals: SummaryTotals, file: Counted, sign: 1 | -1): void {
  totals.count[file.status] += sign;
  totals.files += sign;
  if (!counts(file)) return;
  totals.uploaded += sign * file.uploaded;
  totals.size += sign * file.size;
}

/** Totals of `files` at `bytesPerSecond` (see {@link UploadSummary}). */
export function summarize(files: readonly Counted[], bytesPerSecond: number): UploadSummary {
  const totals = noTotals();
  for (const file of files) countFile(totals, file, 1);
  return summaryOf(totals, bytesPerSecond);
}

/** The summary of `totals` at `bytesPerSecond` (see {@link UploadSummary}), a new object (its `count` a copy). */
export function summaryOf({ count: counted, uploaded, size, files }: SummaryTotals, bytesPerSecond: number): UploadSummary {
  const count = { ...counted };
  const inTotals = files - count.error - count.aborted - count.elsewhere;
  const allDone = inTotals > 0 && count.done === inTotals;
  // Empty files only: done is 100 %, as for one empty file.
  const progress = size === 0 ? (allDone ? 100 : 0) : (uploaded / size) * 100;
  const sending = count.uploading > 0 && bytesPerSecond > 0;
  return {
    uploaded,
    size,
    progress,
    bytesPerSecond: sending ? bytesPerSecond : 0,
    secondsLeft: sending ? (size - uploaded) / bytesPerSecond : undefined,
    count,
  };
}
