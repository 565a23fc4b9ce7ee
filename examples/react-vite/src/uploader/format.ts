import { formatBytes, type TrackedFileStatus, type UploadSummary } from '@upbeam/upload-react';

/** What each status reads as on the page. */
export const STATUS_TEXT: Record<TrackedFileStatus, string> = {
  queued: 'Waiting',
  uploading: 'Uploading',
  paused: 'Paused',
  done: 'Uploaded',
  error: 'Failed',
  aborted: 'Cancelled',
  elsewhere: 'Uploading in another tab',
};

/** Time left as people read it: `less than a second left`, `about 12 s left`, `about 3 min left`, `about 1 h 5 min left`. */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 1) return 'less than a second left';
  if (seconds < 60) return `about ${Math.ceil(seconds)} s left`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `about ${minutes} min left` : `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** The files that ended otherwise than stored, and those still waiting: `1 failed`, `2 cancelled`, `3 queued`. */
function otherCounts({ count }: UploadSummary): string[] {
  const named: [number, string][] = [
    [count.error, 'failed'],
    [count.aborted, 'cancelled'],
    [count.queued, 'queued'],
  ];
  return named.filter(([n]) => n > 0).map(([n, name]) => `${n} ${name}`);
}

/** The line under the overall progress bar: files (done, failed, cancelled, queued), percent, speed and time left. */
export function summaryText(summary: UploadSummary, total: number): string {
  const { count } = summary;
  const parts = [`${count.done} of ${total} ${total === 1 ? 'file' : 'files'} uploaded`, ...otherCounts(summary), `${Math.floor(summary.progress)}%`];
  if (summary.bytesPerSecond > 0) parts.push(formatBytes(summary.bytesPerSecond, { perSecond: true }));
  if (summary.secondsLeft !== undefined) parts.push(formatTimeLeft(summary.secondsLeft));
  return parts.join(' · ');
}

/**
 * What the live region says: a sentence per tenth of the way and per file ended, not per progress event
 * (a screen reader would read every one).
 */
export function announcement(summary: UploadSummary, total: number): string {
  const { count } = summary;
  const active = count.queued + count.uploading + count.paused;
  if (total === 0) return '';
  if (active === 0) {
    const others = otherCounts(summary).map((text) => `, ${text}`).join('');
    return `${count.done} of ${total} ${total === 1 ? 'file' : 'files'} uploaded${others}.`;
  }
  return `Uploading: ${Math.floor(summary.progress / 10) * 10}%, ${count.done} of ${total} files done.`;
}
