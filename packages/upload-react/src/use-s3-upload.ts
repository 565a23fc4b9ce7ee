'use client';
import { UploadTracker, type TrackedFile, type UploadOptions } from '@upbeam/upload-client';
import type { UploadResult } from '@upbeam/upload-protocol';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { createFileInput } from './file-input';

/** Options of {@link useS3Upload}: defaults for every upload (endpoint, onProgress, signal). */
export type UseS3UploadOptions = UploadOptions;

/** What {@link useS3Upload} returns. */
export interface UseS3Upload {
  /**
   * Tracks the file (progress 0 at once) and uploads it; resolves to `{ url, bucket, key }`.
   * Rejects with an `AbortError` DOMException (`Upload aborted.`) when cancelled, and with an
   * `UploadClientError` when the endpoint or storage refuses.
   */
  uploadToS3: (file: File, options?: UploadOptions) => Promise<UploadResult>;
  /**
   * Tracked files, in the order picked: `{ id, file, progress (percent), uploaded (bytes), size (bytes), status }`;
   * `status` is `uploading`, `paused`, `done`, `error` or `aborted`.
   */
  files: readonly TrackedFile[];
  /** Empties `files` (running uploads go on untracked: `cancel()` first to stop them). */
  resetFiles: () => void;
  /** Cancels the upload with this id (paused or not), or all running uploads. */
  cancel: (id?: string) => void;
  /**
   * Pauses the multipart upload with this id (a file at or above `multipartThreshold`): its parts in flight
   * stop, status `paused`. A single PUT is not paused.
   */
  pause: (id: string) => void;
  /** Resumes the paused upload with this id: only the parts it lacks are sent. */
  resume: (id: string) => void;
  /** A hidden `<input type="file">`; its `onChange` gets the picked `File`. Render it once. */
  FileInput: ReturnType<typeof createFileInput>['FileInput'];
  /** Opens the browser's file dialog of `FileInput`. */
  openFileDialog: () => void;
}

/**
 * Uploads files from the browser straight to S3-compatible storage and tracks their progress.
 * A thin layer over `UploadTracker` of `@upbeam/upload-client`.
 *
 * @example
 * function Uploader() {
 *   const { FileInput, openFileDialog, uploadToS3, files } = useS3Upload();
 *   return (
 *     <>
 *       <FileInput onChange={(file) => uploadToS3(file)} />
 *       <button onClick={openFileDialog}>Upload file</button>
 *       {files.map((f) => <progress key={f.id} value={f.progress} max={100} />)}
 *     </>
 *   );
 * }
 */
export function useS3Upload(options: UseS3UploadOptions = {}): UseS3Upload {
  const [tracker] = useState(() => new UploadTracker(options));
  useEffect(() => tracker.setOptions(options));
  const files = useSyncExternalStore(tracker.subscribe, tracker.getSnapshot, tracker.getSnapshot);
  const [{ FileInput, openFileDialog }] = useState(createFileInput);
  const { upload: uploadToS3, reset: resetFiles, cancel, pause, resume } = tracker;
  return { uploadToS3, files, resetFiles, cancel, pause, resume, FileInput, openFileDialog };
}
