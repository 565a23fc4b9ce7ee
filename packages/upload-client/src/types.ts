/**
 * The client's shared types: the options of an upload and the one object every strategy module reads.
 * They live apart from the modules that use them, so that `upload-file`, `prepare` and the strategies
 * import this file and not each other.
 */
import type { UploadStrategy } from '@upbeam/upload-protocol';
import type { ChecksumOption } from './checksum';
import type { PauseController } from './pause';
import type { ProgressListener } from './progress';
import type { RetryOptions, RetrySettings } from './retry';

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
   * A checksum storage verifies on each part and on a single PUT. With one, each part (or the file) is
   * hashed (a stream of its `Blob.slice()`, never the whole file; `hash-wasm`, loaded on first use) and sent
   * with its `Content-MD5`, which storage checks (RFC 1864): bytes changed on the way are refused with 400
   * `BadDigest` and the part is sent again. The result then holds the object's `checksum` (the `composite`
   * MD5 of the parts, or the `full-object` MD5 of a single PUT).
   * - unset: as the server's preparation answer says (`checksum: 'md5'` when its storage verifies it: on by
   *   default for AWS S3, R2, Wasabi, MinIO and Ceph; see the server's `checksum` setting). A server that
   *   predates it asks for none. A single PUT is hashed once, after the first answer.
   * - `'md5'`: always; `false`: never, whatever the server says.
   * The bucket's CORS rule must allow the `Content-MD5` request header (`AllowedHeaders: ["*"]` does).
   * s3rver (the local development storage) ignores it. Costs the hashing time (throughput with and without it:
   * bench/RESULTS.md).
   * @default undefined (the server decides)
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
   * upload) or `temporary-token` (temporary credentials for one object key, with which the browser signs
   * its own requests; loaded on first use only).
   * @default 'presigned'
   */
  strategy?: UploadStrategy;
  /**
   * The name sent as `filename` (the server builds the object key from it). A file of a dropped or picked
   * folder sends its relative path, `photos/2024/a.jpg`; the server keeps its `/` segments, each sanitized.
   * @default file.name
   */
  filename?: string;
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
