/**
 * The part math of a multipart upload: which part size, how many parts, which bytes each part holds, and
 * the option checks made before any request. S3's limits (from `@upbeam/upload-protocol`): parts of 5 MiB
 * to 5 GiB (the last may be smaller), at most 10000 parts, objects up to 5 TiB.
 */
import { MAX_OBJECT_SIZE, MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE, type CompletedPart, type StoredPart } from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import { DEFAULT_MULTIPART_THRESHOLD, defaultPartSize } from './multipart-threshold';
import type { MultipartOptions } from './types';

/**
 * Default part size, in bytes (5 MiB, S3's smallest): a lost part costs little to resend, progress moves
 * part by part, and 4 parts at once keep a connection each busy.
 */
export const DEFAULT_PART_SIZE = MIN_PART_SIZE;

/**
 * Parts sent at once (SPEC 9: default concurrency 4). Browsers open at most 6 HTTP/1.1 connections per
 * host; 4 leaves room for the page's other requests.
 */
export const DEFAULT_QUEUE_SIZE = 4;

/** The bytes of one part: `[start, end)` of the file. */
export interface PartRange {
  /** 1 to 10000. */
  partNumber: number;
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive. */
  end: number;
}

/** Multipart options after defaults and checks. */
export interface MultipartSettings {
  multipartThreshold: number;
  partSize: number;
  queueSize: number;
  leavePartsOnError: boolean;
  /** `resume` as given: off (`false`), on (`true`: unscoped), or on under a scope. */
  resume: NonNullable<MultipartOptions['resume']>;
  tags: NonNullable<MultipartOptions['tags']>;
}

function invalid(message: string): UploadClientError {
  return new UploadClientError('INVALID_OPTIONS', message);
}

/** Number of parts of a file of `size` bytes in parts of `partSize` bytes (at least 1). */
export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/**
 * The part size for a file of `size` bytes: `partSize` when the caller set it, else 5 MiB, raised to the
 * smallest whole number of MiB that fits the file in 10000 parts (525 MiB for 5 TiB).
 * @throws {@link UploadClientError} `INVALID_OPTIONS`: a file over 5 TiB; a set `partSize` under 5242880 or
 *   over 5368709120 bytes, or not an integer; `Exceeded 10000 parts in multipart upload` (SPEC 8) when the
 *   set `partSize` makes more than 10000 parts.
 */
export function choosePartSize(size: number, partSize?: number): number {
  if (size > MAX_OBJECT_SIZE) {
    throw invalid(`The file is ${size} bytes: S3 stores objects of at most ${MAX_OBJECT_SIZE} bytes (5 TiB).`);
  }
  if (partSize === undefined) {
    return defaultPartSize(size);
  }
  if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
    throw invalid(
      `partSize must be an integer of at least ${MIN_PART_SIZE} bytes (5 MiB): S3 rejects smaller parts with EntityTooSmall, and at most ${MAX_PART_SIZE} bytes (5 GiB). Got ${partSize}.`,
    );
  }
  const parts = partCount(size, partSize);
  if (parts > MAX_PARTS) {
    throw invalid(
      `Exceeded ${MAX_PARTS} parts in multipart upload: ${size} bytes in parts of ${partSize} bytes make ${parts} parts; use a partSize of at least ${Math.ceil(size / MAX_PARTS)} bytes.`,
    );
  }
  return partSize;
}

/** Every part of a file of `size` bytes cut in parts of `partSize` bytes, the last one shorter. */
export function partRanges(size: number, partSize: number): PartRange[] {
  return Array.from({ length: partCount(size, partSize) }, (_, index) => ({
    partNumber: index + 1,
    start: index * partSize,
    end: Math.min(size, (index + 1) * partSize),
  }));
}

/** A part as a resumed upload knows it: from ListParts with its stored size, or from the journal without. */
export type KnownPart = CompletedPart & Partial<Pick<StoredPart, 'size'>>;

/**
 * The parts of a resumed upload that storage holds whole: a listed part whose stored size differs from the
 * size it must have (an UploadPart cut off mid-body that storage kept anyway, as s3rver does) is left out,
 * so that it is sent again. Parts the journal recorded (no size: their UploadPart was answered) are kept.
 * @param fileSize - Size of the file, in bytes.
 * @param partSize - Part size of the upload, in bytes.
 */
export function wholeParts(parts: readonly KnownPart[], fileSize: number, partSize: number): CompletedPart[] {
  const expected = new Map(partRanges(fileSize, partSize).map(({ partNumber, start, end }) => [partNumber, end - start]));
  return parts
    .filter(({ partNumber, size }) => expected.has(partNumber) && (size === undefined || size === expected.get(partNumber)))
    .map(({ partNumber, etag }) => ({ partNumber, etag }));
}

/**
 * Bytes of a file of `fileSize` bytes that the whole parts among `parts` hold (see {@link wholeParts}): what a
 * kept multipart upload has on storage before it continues.
 * @param partSize - Part size of the upload, in bytes.
 */
export function storedBytes(parts: readonly KnownPart[], fileSize: number, partSize: number): number {
  const stored = new Set(wholeParts(parts, fileSize, partSize).map(({ partNumber }) => partNumber));
  return partRanges(fileSize, partSize).reduce((sum, { partNumber, start, end }) => (stored.has(partNumber) ? sum + end - start : sum), 0);
}

/**
 * Applies defaults and checks the multipart options of a file of `size` bytes, before any network call.
 * @throws {@link UploadClientError} `INVALID_OPTIONS`: see {@link choosePartSize}; `queueSize` under 1 or not
 *   an integer; `multipartThreshold` negative or not an integer.
 */
export function resolveMultipartSettings(size: number, options: MultipartOptions): MultipartSettings {
  const { queueSize = DEFAULT_QUEUE_SIZE, multipartThreshold = DEFAULT_MULTIPART_THRESHOLD } = options;
  if (!Number.isInteger(queueSize) || queueSize < 1) {
    throw invalid(`queueSize must be an integer of at least 1. Got ${queueSize}.`);
  }
  if (!Number.isInteger(multipartThreshold) || multipartThreshold < 0) {
    throw invalid(`multipartThreshold must be a whole number of bytes. Got ${multipartThreshold}.`);
  }
  return {
    multipartThreshold,
    partSize: choosePartSize(size, options.partSize),
    queueSize,
    leavePartsOnError: options.leavePartsOnError ?? false,
    resume: options.resume ?? false,
    tags: options.tags ?? [],
  };
}
