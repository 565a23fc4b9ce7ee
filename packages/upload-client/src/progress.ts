/** Progress of one upload. */
export interface UploadProgress {
  /**
   * Bytes that storage acknowledged or that are in flight now. When a request fails or is cancelled, its
   * bytes leave it: a single PUT goes back to 0, a multipart upload to its stored parts (0 once the upload
   * is aborted on storage). A retry then counts up again.
   */
  uploaded: number;
  /** Size of the file, in bytes. */
  size: number;
  /** `uploaded / size` in percent, 0 to 100 (100 for an empty file once stored). */
  progress: number;
}

/**
 * Receives progress: `uploaded` as it grows, at most 20 times a second; at once when it falls back (a
 * request failed or was cancelled); once with 100 % when the upload is stored.
 */
export type ProgressListener = (progress: UploadProgress) => void;

/**
 * Shortest time between two progress reports, in milliseconds (at most 20 a second). WebKit fires an
 * upload progress event per 8 KiB sent, thousands a second: more reports than a screen can show, each a
 * re-render of the page.
 */
export const PROGRESS_INTERVAL_MS = 50;

/**
 * Wraps a listener so that it never sees progress past the file size (a browser may report `loaded` above
 * the body size) and hears of growth at most once per {@link PROGRESS_INTERVAL_MS}: the first at once, later
 * ones held until the interval has passed (the latest value then). The whole size is reported at once, and
 * so is a fall (bytes that left: a request failed or was cancelled), which drops any growth still held.
 */
export function throttledProgress(size: number, listener: ProgressListener | undefined): (uploaded: number) => void {
  let latest = -1;
  let reported = -1;
  let reportedAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const report = () => {
    clearTimeout(timer);
    timer = undefined;
    if (latest === reported) return;
    reported = latest;
    reportedAt = Date.now();
    listener?.({ uploaded: latest, size, progress: size === 0 ? 100 : (latest / size) * 100 });
  };
  return (uploaded) => {
    latest = Math.max(0, Math.min(uploaded, size));
    const wait = reportedAt + PROGRESS_INTERVAL_MS - Date.now();
    if (latest === size || latest < reported || wait <= 0) report();
    else timer ??= setTimeout(report, wait);
  };
}
