import { formatBytes, type TrackedFileStatus } from '@upbeam/upload-client';
import type { FileRejection } from '@upbeam/upload-client/drop-zone';

/**
 * Every word the components show or announce, in one object: pass a `Partial<UploadLabels>` as `labels`
 * to any component to change some (another language, your product's voice). Functions get the file's name
 * (its relative path for a folder's file) or the numbers to put in the sentence.
 */
export interface UploadLabels {
  /** The status word of each row. */
  status: Record<TrackedFileStatus, string>;
  /** The drop zone's first line. @default 'Drop files or a folder here' */
  dropzone: string;
  /** The drop zone's first line while files are dragged over it. @default 'Drop to upload' */
  dropzoneActive: string;
  /** The drop zone's second line. @default 'or press to choose files; you can also paste' */
  dropzoneHint: string;
  /** The upload button's text when idle. @default 'Upload files' */
  button: string;
  /** The upload button's text while files upload, with the overall percent (0-100, whole). */
  buttonUploading: (percent: number) => string;
  /** A button that picks a whole folder (`folders` prop of the drop zone). @default 'Choose a folder' */
  chooseFolder: string;
  pause: string;
  resume: string;
  cancel: string;
  retry: string;
  remove: string;
  /** Cancels every file not ended yet. @default 'Cancel all' */
  cancelAll: string;
  /** Takes every file off the list. @default 'Clear list' */
  clear: string;
  /** The accessible name of a row's button: `Cancel harbour.png`. */
  fileAction: (action: string, name: string) => string;
  /** The accessible name of a row's progress bar. */
  fileProgress: (name: string) => string;
  /** The accessible name of the overall progress bar. @default 'All files progress' */
  overallProgress: string;
  /** The accessible name of the whole uploader (a region). @default 'Uploads' */
  region: string;
  /** The accessible name of the list of files. @default 'Files' */
  list: string;
  /** The list of refused files. @default 'Not uploaded' */
  rejections: string;
  /**
   * Why a file was turned away, in words: by default the drop zone's `message`, but a file too large reads
   * `raw-footage.mov is too large (105 MB).`
   */
  rejection: (rejection: FileRejection) => string;
  /** Time left: `about 12 s left` (seconds, > 0). */
  timeLeft: (seconds: number) => string;
  /** `3 of 5 files uploaded` */
  filesUploaded: (done: number, total: number) => string;
  failed: (count: number) => string;
  cancelled: (count: number) => string;
  queued: (count: number) => string;
  /** The polite announcement while files upload, by tenths: `Uploading: 40%, 1 of 5 files done.` */
  announceProgress: (tenthPercent: number, done: number, total: number) => string;
}

const files = (n: number) => (n === 1 ? 'file' : 'files');

/**
 * Time left as people read it, rounded up: `less than a second left`, `about 12 s left`, `about 3 min left`,
 * `about 1 h left`, `about 1 h 5 min left`.
 * @param seconds - Seconds left (> 0).
 */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 1) return 'less than a second left';
  const whole = Math.ceil(seconds);
  if (whole < 60) return `about ${whole} s left`;
  const minutes = Math.ceil(whole / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `about ${hours} h left` : `about ${hours} h ${minutes % 60} min left`;
}

/** The components' English words. */
export const DEFAULT_LABELS: UploadLabels = {
  status: { queued: 'Waiting', uploading: 'Uploading', paused: 'Paused', done: 'Uploaded', error: 'Failed', aborted: 'Cancelled', elsewhere: 'Uploading in another tab' },
  dropzone: 'Drop files or a folder here',
  dropzoneActive: 'Drop to upload',
  dropzoneHint: 'or press to choose files; you can also paste',
  button: 'Upload files',
  buttonUploading: (percent) => `Uploading… ${percent}%`,
  chooseFolder: 'Choose a folder',
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
  retry: 'Retry',
  remove: 'Remove',
  cancelAll: 'Cancel all',
  clear: 'Clear list',
  fileAction: (action, name) => `${action} ${name}`,
  fileProgress: (name) => `${name} progress`,
  overallProgress: 'All files progress',
  region: 'Uploads',
  list: 'Files',
  rejections: 'Not uploaded',
  rejection: ({ code, file, path, message }) => (code === 'file-too-large' ? `${path ?? file.name} is too large (${formatBytes(file.size)}).` : message),
  timeLeft: formatTimeLeft,
  filesUploaded: (done, total) => `${done} of ${total} ${files(total)} uploaded`,
  failed: (count) => `${count} failed`,
  cancelled: (count) => `${count} cancelled`,
  queued: (count) => `${count} queued`,
  announceProgress: (tenth, done, total) => `Uploading: ${tenth}%, ${done} of ${total} ${files(total)} done.`,
};

/** `labels` over the defaults (the status words merged one by one). */
export function withDefaults(labels: Partial<UploadLabels> | undefined): UploadLabels {
  if (!labels) return DEFAULT_LABELS;
  return { ...DEFAULT_LABELS, ...labels, status: { ...DEFAULT_LABELS.status, ...labels.status } };
}
