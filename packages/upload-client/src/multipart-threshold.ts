/**
 * When a file goes multipart. Apart from the part math so that the initial chunk, which decides whether
 * to load the multipart engine, carries only this.
 */
import { MAX_SINGLE_PUT_SIZE } from '@upbeam/upload-protocol';

/**
 * Default `multipartThreshold`, in bytes (100 MiB). Below it one PUT sends at the browser's own speed and a
 * failed attempt costs little to resend; at and above it, the multipart engine's part-level retry, resume
 * and parallel connections pay for its extra requests (see the docs' guide "Large files and resume" and bench/RESULTS.md).
 */
export const DEFAULT_MULTIPART_THRESHOLD = 100 * 1024 * 1024;

/**
 * Whether a file of `size` bytes goes multipart: at or above `threshold` (an empty file never does), and
 * always over 5 GiB, the largest object one PUT may store.
 */
export function usesMultipart(size: number, threshold: number = DEFAULT_MULTIPART_THRESHOLD): boolean {
  return size > MAX_SINGLE_PUT_SIZE || (size > 0 && size >= threshold);
}
