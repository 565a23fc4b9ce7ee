import { UploadClientError } from './errors';

/**
 * Smallest part of a multipart upload, in bytes (5 MiB). S3 rejects smaller parts, except the last:
 * CompleteMultipartUpload answers `EntityTooSmall`.
 */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

/** Most parts one multipart upload may have (S3 limit; UploadPart `partNumber` is 1 to 10000). */
export const MAX_PARTS = 10_000;

/**
 * Parts sent at once (SPEC 9: default concurrency 4). Browsers open at most 6 HTTP/1.1 connections per
 * host; 4 leaves room for the page's other requests.
 */
export const DEFAULT_QUEUE_SIZE = 4;

/** An object tag set after upload (S3 PutObjectTagging): at most 10 per object. */
export interface ObjectTag {
  Key: string;
  Value: string;
}

/** Options of the temporary-token strategy's multipart upload. */
export interface MultipartOptions {
  /**
   * Size of each part, in bytes; at least 5242880 (5 MiB). When unset: 5 MiB, raised for files over
   * 50 GiB so that they fit in 10000 parts.
   * @default 5242880
   */
  partSize?: number;
  /** Parts sent at once; at least 1. @default 4 */
  queueSize?: number;
  /**
   * Keep the uploaded parts on storage when the upload fails or is cancelled. When false, the multipart
   * upload is aborted so that no parts stay behind (billed, invisible in listings).
   * @default false
   */
  leavePartsOnError?: boolean;
  /** Tags set on the object after upload; the server must allow it (`allowObjectTagging`). */
  tags?: ObjectTag[];
}

/** Options after defaults and checks. */
export interface MultipartSettings {
  partSize: number;
  queueSize: number;
  leavePartsOnError: boolean;
  tags: ObjectTag[];
}

function invalid(message: string): UploadClientError {
  return new UploadClientError('INVALID_OPTIONS', message);
}

/**
 * Applies defaults and checks the limits before any network call.
 * @throws {@link UploadClientError} `INVALID_OPTIONS`: `partSize` under 5242880 bytes or not an integer;
 *   `queueSize` under 1 or not an integer; `Exceeded 10000 parts in multipart upload` when the file needs
 *   more parts at the given `partSize`.
 */
export function resolveMultipartSettings(fileSize: number, options: MultipartOptions): MultipartSettings {
  const { partSize, queueSize = DEFAULT_QUEUE_SIZE } = options;
  if (partSize !== undefined && (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE)) {
    throw invalid(
      `partSize must be an integer of at least ${MIN_PART_SIZE} bytes (5 MiB): S3 rejects smaller parts with EntityTooSmall. Got ${partSize}.`,
    );
  }
  if (!Number.isInteger(queueSize) || queueSize < 1) {
    throw invalid(`queueSize must be an integer of at least 1. Got ${queueSize}.`);
  }
  const size = partSize ?? Math.max(MIN_PART_SIZE, Math.ceil(fileSize / MAX_PARTS));
  const parts = Math.ceil(fileSize / size);
  if (parts > MAX_PARTS) {
    throw invalid(
      `Exceeded ${MAX_PARTS} parts in multipart upload: ${fileSize} bytes in parts of ${size} bytes make ${parts} parts; use a partSize of at least ${Math.ceil(fileSize / MAX_PARTS)} bytes.`,
    );
  }
  return { partSize: size, queueSize, leavePartsOnError: options.leavePartsOnError ?? false, tags: options.tags ?? [] };
}
