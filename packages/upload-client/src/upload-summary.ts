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
}

/** The fields of a tracked file the summary reads. */
interface Counted {
  status: TrackedFileStatus;
  uploaded: number;
  size: number;
}

/** Whether a file's bytes count in the totals: it is on its way or stored (by this tab). */
const counts = (file: Counted) => file.status !== 'error' && file.status !== 'aborted' && file.status !== 'elsewhere';

/** Totals of `files` at `bytesPerSecond` (see {@link UploadSummary}). */
export function summarize(files: readonly Counted[], bytesPerSecond: number): UploadSummary {
  const count: Record<TrackedFileStatus, number> = { queued: 0, uploading: 0, paused: 0, done: 0, error: 0, aborted: 0, elsewhere: 0 };
  let uploaded = 0;
  let size = 0;
  for (const file of files) {
    count[file.status] += 1;
    if (!counts(file)) continue;
    uploaded += file.uploaded;
    size += file.size;
  }
  const counted = files.length - count.error - count.aborted - count.elsewhere;
  const allDone = counted > 0 && count.done === counted;
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
