import { formatBytes, type UploadSummary } from '@upbeam/upload-client';
import type { FileRejection, FileRules } from '@upbeam/upload-client/drop-zone';
import type { UploadLabels } from './labels';

/** The files that ended otherwise than stored, and those still waiting: `1 failed`, `2 cancelled`, `3 queued`. */
function otherCounts({ count }: UploadSummary, labels: UploadLabels): string[] {
  const named: [number, (n: number) => string][] = [
    [count.error, labels.failed],
    [count.aborted, labels.cancelled],
    [count.queued, labels.queued],
  ];
  return named.filter(([n]) => n > 0).map(([n, text]) => text(n));
}

/** Every file the summary counts, whatever its status. */
export const totalFiles = ({ count }: UploadSummary) => Object.values(count).reduce((sum, n) => sum + n, 0);

/** Files not ended yet: queued, uploading or paused. */
export const activeFiles = ({ count }: UploadSummary) => count.queued + count.uploading + count.paused;

/**
 * The line under the overall progress bar: files (done, failed, cancelled, queued), percent, speed (powers
 * of 1000, `Intl`) and time left: `2 of 5 files uploaded · 1 failed · 1 queued · 64% · 1.2 MB/s · about 3 s left`.
 */
export function summaryText(summary: UploadSummary, labels: UploadLabels, locale?: string): string {
  const parts = [labels.filesUploaded(summary.count.done, totalFiles(summary)), ...otherCounts(summary, labels), labels.percent(Math.floor(summary.progress))];
  if (summary.bytesPerSecond > 0) parts.push(formatBytes(summary.bytesPerSecond, { perSecond: true, locale }));
  if (summary.secondsLeft !== undefined) parts.push(labels.timeLeft(summary.secondsLeft));
  return parts.join(labels.separator);
}

/**
 * What the polite live region says: a sentence per tenth of the way and per file ended, never per progress
 * event (a screen reader would read every one). Empty with no file.
 */
export function announcement(summary: UploadSummary, labels: UploadLabels): string {
  const total = totalFiles(summary);
  if (total === 0) return '';
  const { done } = summary.count;
  if (activeFiles(summary) === 0) return labels.announceEnded([labels.filesUploaded(done, total), ...otherCounts(summary, labels)]);
  return labels.announceProgress(Math.floor(summary.progress / 10) * 10, done, total);
}

/**
 * An upload's error in words for the page: the words of its code in `labels.errors` (the endpoint's `code`
 * first, then the client's), else its message (`Upload aborted.`, the server's `The file is too large…`).
 */
export function errorText(error: unknown, labels: UploadLabels): string {
  const { answerCode, code } = (error ?? {}) as { answerCode?: unknown; code?: unknown };
  const word = (typeof answerCode === 'string' && labels.errors[answerCode]) || (typeof code === 'string' && labels.errors[code]);
  if (word) return word;
  if (error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)) return error.message || error.name;
  return typeof error === 'string' && error ? error : labels.uploadFailed;
}

/**
 * Why a file was turned away, in the words of `labels` (by its code), with the rule it broke: the sizes
 * written in `locale`.
 */
export function rejectionText(rejection: FileRejection, rules: FileRules, labels: UploadLabels, locale?: string): string {
  if (labels.rejection) return labels.rejection(rejection);
  const name = rejection.path ?? rejection.file.name;
  const size = (bytes = 0) => formatBytes(bytes, { locale });
  const words = labels.rejected;
  switch (rejection.code) {
    case 'file-invalid-type':
      return words['file-invalid-type'](name, rules.accept ?? '');
    case 'file-too-large':
      return words['file-too-large'](name, size(rejection.file.size), size(rules.maxSize));
    case 'file-too-small':
      return words['file-too-small'](name, size(rejection.file.size), size(rules.minSize));
    default:
      return words['too-many-files'](name, rules.maxFiles ?? 1);
  }
}
