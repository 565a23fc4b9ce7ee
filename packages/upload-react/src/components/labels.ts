import type { TrackedFileStatus } from '@upbeam/upload-client';
import type { FileRejection, FileRejectionCode } from '@upbeam/upload-client/drop-zone';

/**
 * Why a file was turned away before any request, one sentence per rejection code of the drop zone (its
 * `message` is English only). Sizes come written in the locale (`105 MB`, `105 Mo`); the name is the file's
 * relative path for a folder's file.
 */
export interface RejectionLabels extends Record<FileRejectionCode, (name: string, ...details: never[]) => string> {
  /** Not a type `accept` lists: `brochure.pdf: this type of file is not accepted (image/*,.txt).` */
  'file-invalid-type': (name: string, accept: string) => string;
  /** Larger than `maxSize`: `raw-footage.mov is too large (105 MB).` */
  'file-too-large': (name: string, size: string, maxSize: string) => string;
  /** Smaller than `minSize`: `empty.txt is too small (0 B).` */
  'file-too-small': (name: string, size: string, minSize: string) => string;
  /** Past `maxFiles` in one drop, paste or pick (1 for a button without `multiple`): `c.png: at most 2 files at once.` */
  'too-many-files': (name: string, maxFiles: number) => string;
}

/**
 * Every word the components show or announce, in one object: pass an {@link UploadLocale} as `locale` for
 * another language (`@upbeam/upload-react/locales`), and `labels` to change some words on top of it (your
 * product's voice). Functions get the file's name (its relative path for a folder's file) or the numbers to
 * put in the sentence, and write the numbers themselves (`Intl` in the locale).
 */
export interface UploadLabels {
  /** The status word of each row. */
  status: Record<TrackedFileStatus, string>;
  /** The drop zone's first line. @default 'Drop files or a folder here' */
  dropzone: string;
  /** The drop zone's first line when it takes one file (`maxFiles: 1`, its own or its route's). @default 'Drop a file here' */
  dropzoneSingle: string;
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
  /** Pauses a multipart upload (a row's button). @default 'Pause' */
  pause: string;
  /** Resumes it. @default 'Resume' */
  resume: string;
  /** Cancels a file not ended yet. @default 'Cancel' */
  cancel: string;
  /** Sends a failed or cancelled file again. @default 'Retry' */
  retry: string;
  /** Takes an ended file off the list. @default 'Remove' */
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
  /** Why a file was turned away, in words, by rejection code (see {@link RejectionLabels}). */
  rejected: RejectionLabels;
  /**
   * Replaces `rejected` for every rejection: the sentence for one file turned away. Unset: `rejected`'s words.
   * @deprecated Give `rejected` the words of the codes instead (a sentence per code, with its sizes).
   */
  rejection?: (rejection: FileRejection) => string;
  /**
   * A failed file's error in words, by code: the endpoint's `code` (`FILE_TOO_LARGE`, `UNAUTHORIZED`,
   * `QUOTA_EXCEEDED`, or your own) is looked up first, then the client's (`NETWORK_ERROR`, `STORAGE_ERROR`,
   * `FILE_UNREADABLE`, `TOO_MANY_FILES`). A code not listed shows the error's own message (the server's text).
   * @default {} (English shows the server's message)
   */
  errors: Partial<Record<string, string>>;
  /** A failed file's error when it has no message. @default 'The upload failed.' */
  uploadFailed: string;
  /** A percent (0-100, whole) as the locale writes it. @default `64%` */
  percent: (percent: number) => string;
  /** Between the facts of a row and of the summary. @default ' · ' */
  separator: string;
  /** Time left: `about 12 s left` (seconds, > 0). */
  timeLeft: (seconds: number) => string;
  /** `3 of 5 files uploaded` */
  filesUploaded: (done: number, total: number) => string;
  /** Files that failed, counted: `1 failed`. */
  failed: (count: number) => string;
  /** Files cancelled, counted: `2 cancelled`. */
  cancelled: (count: number) => string;
  /** Files waiting their turn, counted: `3 queued`. */
  queued: (count: number) => string;
  /** The polite announcement while files upload, by tenths: `Uploading: 40%, 1 of 5 files done.` */
  announceProgress: (tenthPercent: number, done: number, total: number) => string;
  /** The polite announcement once every file ended, from the summary's counts: `3 of 5 files uploaded, 2 failed.` */
  announceEnded: (counts: string[]) => string;
}

/**
 * The words of one language, with what the page needs to show them: how numbers are written and which way
 * the text runs. Pass it as the components' `locale` (`import { fr } from '@upbeam/upload-react/locales'`).
 */
export interface UploadLocale {
  /** BCP 47 tag of the language: numbers, sizes and speeds are written in it, and it is the region's `lang`. */
  locale: string;
  /** Which way the text runs: `rtl` lays the components out right to left (the region's `dir`). */
  dir: 'ltr' | 'rtl';
  /** Every word the components show or announce. */
  labels: UploadLabels;
}

/** Words to change on top of the locale's: any label, and the nested ones (`status`, `rejected`, `errors`) one by one. */
export type UploadLabelOverrides = Partial<Omit<UploadLabels, 'status' | 'rejected'>> & {
  status?: Partial<UploadLabels['status']>;
  rejected?: Partial<RejectionLabels>;
};

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
  dropzoneSingle: 'Drop a file here',
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
  rejected: {
    'file-invalid-type': (name, accept) => `${name}: this type of file is not accepted (${accept}).`,
    'file-too-large': (name, size) => `${name} is too large (${size}).`,
    'file-too-small': (name, size) => `${name} is too small (${size}).`,
    'too-many-files': (name, max) => `${name}: at most ${max} ${files(max)} at once.`,
  },
  errors: {},
  uploadFailed: 'The upload failed.',
  percent: (percent) => `${percent}%`,
  separator: ' · ',
  timeLeft: formatTimeLeft,
  filesUploaded: (done, total) => `${done} of ${total} ${files(total)} uploaded`,
  failed: (count) => `${count} failed`,
  cancelled: (count) => `${count} cancelled`,
  queued: (count) => `${count} queued`,
  announceProgress: (tenth, done, total) => `Uploading: ${tenth}%, ${done} of ${total} ${files(total)} done.`,
  announceEnded: (counts) => `${counts.join(', ')}.`,
};

/** The BCP 47 tag numbers are written in: the `locale` prop's, or the locale object's. */
export const localeTag = (locale: string | UploadLocale | undefined): string | undefined => (typeof locale === 'object' ? locale.locale : locale);

/**
 * `labels` over the words of `locale` (English for none, or for a tag alone), the nested words merged one by
 * one.
 */
export function withDefaults(labels: UploadLabelOverrides | undefined, locale?: string | UploadLocale): UploadLabels {
  const base = typeof locale === 'object' ? locale.labels : DEFAULT_LABELS;
  if (!labels) return base;
  return {
    ...base,
    ...labels,
    status: { ...base.status, ...labels.status },
    rejected: { ...base.rejected, ...labels.rejected },
    errors: { ...base.errors, ...labels.errors },
  };
}
