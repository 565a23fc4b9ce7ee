/**
 * When a file goes multipart. Apart from the part math so that the initial chunk, which decides whether
 * to load the multipart engine, carries only this.
 */
import { MAX_PARTS, MAX_SINGLE_PUT_SIZE, MIN_PART_SIZE, type UploadStrategy } from '@upbeam/upload-protocol';

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

const MiB = 1024 * 1024;

/**
 * The part size of a file of `size` bytes when the caller sets none: 5 MiB, raised to the smallest whole
 * number of MiB that fits the file in 10000 parts (525 MiB for 5 TiB). Here, not in the part math, for the
 * `create` that `uploadFile` sends while the multipart chunk loads (`createAhead`).
 */
export const defaultPartSize = (size: number): number => Math.max(MIN_PART_SIZE, Math.ceil(size / MAX_PARTS / MiB) * MiB);

/**
 * Whether an upload with `options` sends a file of `size` bytes multipart: never with `presigned-post` (one form
 * POST, one object), else {@link usesMultipart}.
 */
export const goesMultipart = (size: number, options: { strategy?: UploadStrategy | undefined; multipartThreshold?: number | undefined }): boolean =>
  options.strategy !== 'presigned-post' && usesMultipart(size, options.multipartThreshold);
