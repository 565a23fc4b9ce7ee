import { MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE } from '@upbeam/upload-protocol';
import { UploadError } from './errors';

/**
 * How a file of `filesize` bytes is cut into parts: every part has `partSize` bytes except the last, which
 * has the rest. Fixed at `create` and carried in the ticket, so that each UploadPart URL signs its part's
 * exact Content-Length and storage itself enforces the total size.
 */
export interface PartPlan {
  /** Size of the file, in bytes (at least 1). */
  filesize: number;
  /** Size of every part but the last, in bytes. */
  partSize: number;
  /** Number of parts, 1 to 10000. */
  partCount: number;
}

/** SPEC 8's message for a file that needs more than 10000 parts. */
export const TOO_MANY_PARTS_MESSAGE = `Exceeded ${MAX_PARTS} parts in multipart upload`;

/**
 * Checks a part size against S3's limits and the file size, and plans the parts.
 * @param filesize - Size of the file, in bytes.
 * @param partSize - Size of every part but the last, in bytes.
 * @throws {@link UploadError} `INVALID_REQUEST` (400) when `partSize` is not a whole number from
 *   {@link MIN_PART_SIZE} (5 MiB: S3 answers EntityTooSmall to smaller parts at CompleteMultipartUpload) to
 *   {@link MAX_PART_SIZE} (5 GiB, S3's UploadPart limit), or the file is empty (a single PUT stores it);
 *   `TOO_MANY_PARTS` (400, `Exceeded 10000 parts in multipart upload`) when the file needs more than
 *   {@link MAX_PARTS} parts of that size.
 */
export function planParts(filesize: number, partSize: number): PartPlan {
  if (!Number.isSafeInteger(partSize) || partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
    throw new UploadError(
      'INVALID_REQUEST',
      `"partSize" must be a whole number of bytes from ${MIN_PART_SIZE} (S3 refuses smaller parts) to ${MAX_PART_SIZE}.`,
    );
  }
  if (!Number.isSafeInteger(filesize) || filesize < 1) {
    throw new UploadError('INVALID_REQUEST', 'A multipart upload needs "filesize" of at least 1 byte; store an empty file with a single PUT.');
  }
  const partCount = Math.ceil(filesize / partSize);
  if (partCount > MAX_PARTS) throw new UploadError('TOO_MANY_PARTS', TOO_MANY_PARTS_MESSAGE);
  return { filesize, partSize, partCount };
}

/**
 * Size of part `partNumber` (1-based), in bytes: `partSize`, or the rest of the file for the last part.
 * @throws {@link UploadError} `INVALID_REQUEST` (400) for a part number outside 1 to `partCount`.
 */
export function partSizeOf(plan: PartPlan, partNumber: number): number {
  if (!Number.isSafeInteger(partNumber) || partNumber < 1 || partNumber > plan.partCount) {
    throw new UploadError('INVALID_REQUEST', `Part ${partNumber} does not exist: this upload has parts 1 to ${plan.partCount}.`);
  }
  return partNumber < plan.partCount ? plan.partSize : plan.filesize - (plan.partCount - 1) * plan.partSize;
}
