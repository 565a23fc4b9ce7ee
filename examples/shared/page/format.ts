/** The words the Vue, Svelte, Solid and Angular pages show (a file's status, sizes, error; the strategies) and where they go multipart: one copy for the four. */
import { formatBytes, type TrackedFileStatus, type UploadStrategy } from '@upbeam/upload-client';

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

/** Sizes and speeds as people read them (`840 B`, `1.2 MB`, `1.0 MB/s`): the library's formatter. */
export { formatBytes };

/** An upload's error as one line. */
export function describeError(error: unknown): string {
  return error instanceof Error || error instanceof DOMException ? `${error.name}: ${error.message}` : String(error);
}

const MiB = 1024 * 1024;

/**
 * Where files go multipart on this page (the library's default is 100 MiB), so that the demo shows parts,
 * pause and resume on files of modest size: from 8 MiB with presigned URLs (sent in 5 MiB parts), from 5 MiB
 * (one part) with the temporary token.
 */
export const MULTIPART_THRESHOLD: Readonly<Record<UploadStrategy, number>> = {
  presigned: 8 * MiB,
  'temporary-token': 5 * MiB,
  // Unread: a presigned POST is one object (not offered by this page's choices).
  'presigned-post': 8 * MiB,
};

/** The page's strategy choices, in the order shown, with what each does here. */
export const STRATEGIES: readonly { value: UploadStrategy; label: string }[] = [
  { value: 'presigned', label: 'Presigned URL (one PUT, parts from 8 MiB)' },
  { value: 'temporary-token', label: 'Temporary token (multipart)' },
];
