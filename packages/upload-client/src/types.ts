/**
 * The client's shared types: the options of an upload and the one object every strategy module reads.
 * They live apart from the modules that use them, so that `upload-file`, `prepare` and the strategies
 * import this file and not each other.
 */
import type { ChecksumAlgorithm, UploadStrategy } from '@upbeam/upload-protocol';
import type { PauseController } from './pause';
import type { ProgressListener } from './progress';
import type { RetryOptions, RetrySettings } from './retry';

/**
 * The checksum the browser computes and storage verifies (it refuses a body whose bytes do not match), or
 * `false` to ask for none. Each is hashed off the main thread, streaming the file's slices (a file is then read
 * twice: once to hash, once to send); cost below is the client's CPU per byte beside sending it
 * (bench/RESULTS.md):
 * - `'crc32c'`: CRC-32C in `x-amz-checksum-crc32c`; cheap. Verified by AWS S3 and R2 (single PUT and parts).
 * - `'crc64nvme'`: CRC-64/NVME in `x-amz-checksum-crc64nvme`; cheap; the multipart checksum is the whole
 *   object's (`full-object`), as a single PUT's. AWS S3's own default; R2 verifies it.
 * - `'sha256'`: SHA-256 in `x-amz-checksum-sha256`; the costliest; the one that names content safely
 *   (content-addressed routes use it). Verified by AWS S3 and R2.
 * - `'md5'`: MD5 in `Content-MD5`; costly (it took 10-40 % of the throughput of a fast link). The one older
 *   S3-compatible storage verifies (Ceph radosgw, MinIO, Wasabi; AWS S3 too).
 * s3rver verifies none; `@upbeam/local-s3` verifies them all. Which ones each storage verifies, and the
 * server's default per provider: the guide's checksums page (docs/guide/checksums.md).
 */
export type ChecksumOption = ChecksumAlgorithm | false;

/** Where and how to reach the preparation endpoint. */
export interface PrepareEndpoint {
  /** URL of the preparation endpoint. @default '/api/s3-upload' */
  url?: string;
  /** Extra request headers (e.g. an auth token). `Content-Type: application/json` is always sent. */
  headers?: Record<string, string>;
  /** Extra JSON body fields sent beside `filename`, `filetype` and `_upload`; they cannot replace those. */
  body?: Record<string, unknown>;
}

/** An object tag set after upload (S3 PutObjectTagging): at most 10 per object. */
export interface ObjectTag {
  Key: string;
  Value: string;
}

/** Settings of `resume` (see {@link MultipartOptions.resume}). */
export interface ResumeOptions {
  /**
   * Whose records these are: the signed-in user's id (any string that names one identity). A record is kept
   * under its scope and continued only by an upload given the same scope: a file one user began is never
   * continued (its key, its ticket) under another user's session on a shared browser profile. Unset: the
   * unscoped records, which an upload with a scope never reads.
   */
  scope?: string;
}

/**
 * A step from the file the user picked to the file sent (`UploadOptions.transform`): resize or re-encode an
 * image, strip metadata, compress. Run once per upload before the preparation, so the size checked by the
 * server's `maxFileSize`, the content type, the checksum and the progress are those of the returned file.
 * Return the given file itself to send it unchanged. A rejection fails the upload with its error; `signal`
 * aborts when the upload is cancelled. A convenience, not a security boundary: the server still enforces its
 * rules on what arrives.
 * @param file - The picked file.
 * @param context - `signal`: aborted when the upload is cancelled.
 * @returns The file to send (its `name` is ignored when `filename` or a folder path is sent).
 */
export type FileTransform = (file: File, context: { signal: AbortSignal }) => File | Promise<File>;

/** Options of a multipart upload, on either strategy. */
export interface MultipartOptions {
  /**
   * Files of at least this size, in bytes, go multipart (parts sent `queueSize` at once, each retried on
   * its own, resumable); smaller files go in one PUT. A file over 5 GiB (S3's PutObject limit) always goes
   * multipart. The default, 100 MiB, is where one PUT stops being the better choice: below it a single
   * PUT is as fast as the browser sends (bench: 1.15x a bare XHR PUT) and a failed attempt costs at most
   * a few seconds to resend; above it, part-level retry and resume are worth a request per part, and
   * several connections beat one on a long-distance link to real S3.
   * @default 104857600
   */
  multipartThreshold?: number;
  /**
   * Size of each part, in bytes; from 5242880 (5 MiB, S3 rejects smaller parts with EntityTooSmall) to
   * 5368709120 (5 GiB). When unset: 5 MiB, raised (to whole MiB) for files that would need more than 10000
   * parts. Set, a file that needs more than 10000 parts fails with `Exceeded 10000 parts in multipart upload`.
   * @default 5242880
   */
  partSize?: number;
  /**
   * The checksum storage verifies on a single PUT and on each part (`ChecksumOption`). The file (or each
   * part) is hashed before it is sent, and the value is signed into its URL by the server: the URL then
   * accepts those bytes and no others. Bytes changed on the way or on disk are refused by storage; the file is
   * then hashed and sent again once, and a second refusal fails with `STORAGE_ERROR` "The file changed while it
   * was read, or was corrupted on the way: storage refused its checksum." The result holds the object's
   * `checksum` (a multipart upload's is `composite`, `-N`, except CRC-64/NVME's `full-object`).
   * - unset: the route's (the server's `checksum` setting, its default per provider). The client learns it
   *   from the server's answers and remembers it per endpoint URL and route on this page: the first single PUT
   *   of a route that wants one is asked for again once with its checksum (one more round trip).
   * - an algorithm: that one, where the route's storage verifies it (else `PREPARE_FAILED`, `answerCode`
   *   `CHECKSUM_UNSUPPORTED`).
   * - `false`: ask for none; a route that requires one still gets its own (its URLs are signed with it).
   * The bucket's CORS rule must allow the header (`AllowedHeaders: ["*"]` does).
   * @default undefined (the route's)
   */
  checksum?: ChecksumOption;
  /** Parts sent at once; at least 1. Browsers open 6 connections per host: 4 leaves room for the page. @default 4 */
  queueSize?: number;
  /**
   * Keep the uploaded parts on storage when the upload fails or is cancelled. When false, the multipart
   * upload is aborted so that no parts stay behind (billed, invisible in listings).
   * @default false
   */
  leavePartsOnError?: boolean;
  /**
   * Resume an interrupted multipart upload: the parts sent and their ETags are kept in the browser
   * (IndexedDB, per endpoint, strategy and file name, size, lastModified and type), and when the same file
   * is given again to the same endpoint, only the missing parts are sent, to the same key and upload id. A
   * failure after the retries then keeps the parts on storage (the upload is not aborted) so that it can
   * be resumed; a cancel still aborts it. A kept record whose upload no longer exists, or whose ticket or
   * credentials can no longer be renewed, is dropped and the upload starts afresh.
   * `true` keeps the records unscoped: any page of the origin given the same file continues them, whoever is
   * signed in. On a page with sign-in give `{ scope: user.id }` (see {@link ResumeOptions}), and clear them on
   * sign-out with `clearKeptUploads`.
   * @default false
   */
  resume?: boolean | ResumeOptions;
  /**
   * Tags of the object (at most 10), sent in the preparation body: the server must allow them
   * (`allowObjectTagging`, else 403 `FORBIDDEN`). Presigned single PUT: signed into the PUT's
   * `x-amz-tagging` header. Temporary-token strategy: set after upload (PutObjectTagging).
   */
  tags?: ObjectTag[];
}

/**
 * Options of `uploadFile`. The retry options (`maxAttempts`, default 3; `onRetry`) apply to every request,
 * the multipart options to files at or above `multipartThreshold`.
 */
export interface UploadOptions extends MultipartOptions, RetryOptions {
  /**
   * How the server prepares the upload: `presigned` (signed URLs: one PUT, or the parts of a multipart
   * upload), `temporary-token` (temporary credentials for one object key, with which the browser signs
   * its own requests; loaded on first use only) or `presigned-post` (one form POST whose signed policy storage
   * enforces: key, type, size range; one object of at most 5 GiB, `multipartThreshold` unread; loaded on first
   * use only).
   * @default 'presigned'
   */
  strategy?: UploadStrategy;
  /**
   * The name sent as `filename` (the server builds the object key from it). A file of a dropped or picked
   * folder sends its relative path, `photos/2024/a.jpg`; the server keeps its `/` segments, each sanitized.
   * @default file.name
   */
  filename?: string;
  /**
   * Prepares the file before it is sent (see {@link FileTransform}): e.g. `resizeImage({ maxWidth: 2048 })`
   * of `@upbeam/upload-client/image`. Unset: the picked file is sent as it is.
   */
  transform?: FileTransform;
  /** The preparation endpoint: URL (default `/api/s3-upload`), extra headers, extra body fields. */
  endpoint?: PrepareEndpoint;
  /**
   * The upload route of an endpoint with routes (`createUploadHandler({ routes })`), sent as `route`; an
   * unknown one fails with `PREPARE_FAILED` (404, `answerCode` `UNKNOWN_ROUTE`). Typed with the server's
   * routes: `uploadFile<typeof routes>(file, { route: 'avatar' })`. Unset: the endpoint's one default route.
   */
  route?: string;
  /**
   * Receives `{ uploaded, size, progress }` (bytes, bytes, percent) as the file is sent: bytes storage
   * acknowledged or in flight, at most 20 times a second; back to what storage kept at once when a request
   * fails or is cancelled (0 for a single PUT, the stored parts of a multipart upload); 100 % once stored.
   */
  onProgress?: ProgressListener;
  /** Cancels the upload; the promise then rejects with an `AbortError` DOMException, `Upload aborted.`. */
  signal?: AbortSignal;
  /**
   * Pauses and resumes a multipart upload (see {@link PauseController}): pausing stops the parts in flight
   * and keeps the upload on storage. A single PUT is not paused (it could only start again from byte 0).
   */
  pauseController?: PauseController;
}

/** One upload as the strategies and the endpoint requests see it. */
export interface UploadContext {
  file: File;
  /** Content type sent (and signed): `file.type`, or `application/octet-stream` when the browser has none. */
  filetype: string;
  /** The options, `maxAttempts` resolved (default 3). */
  options: UploadOptions & RetrySettings;
  /** Reports the bytes acknowledged or in flight (they may fall back: see `throttledProgress`). */
  report: (uploaded: number) => void;
}
