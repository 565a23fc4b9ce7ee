/** Progress of one upload. */
export interface UploadProgress {
  /** Bytes sent so far. */
  uploaded: number;
  /** Size of the file, in bytes. */
  size: number;
  /** `uploaded / size` in percent, 0 to 100 (100 for an empty file once stored). */
  progress: number;
}

/** Receives progress; called with non-decreasing `uploaded`, and once with 100 % when the upload is stored. */
export type ProgressListener = (progress: UploadProgress) => void;

/**
 * Wraps a listener so that it never sees progress go backwards or past the file size (a browser may
 * report `loaded` above the body size, and a retried request starts again from 0). `uploaded` is never
 * negative (the browser's `loaded`).
 */
export function monotonicProgress(size: number, listener: ProgressListener | undefined): (uploaded: number) => void {
  let last = -1;
  return (uploaded) => {
    const clamped = Math.min(uploaded, size);
    if (clamped <= last) return;
    last = clamped;
    listener?.({ uploaded: clamped, size, progress: size === 0 ? 100 : (clamped / size) * 100 });
  };
}
