import type { OBJECT_CACHE_CONTROL, UPLOAD_STRATEGIES } from './constants';
import type { ChecksumAlgorithm, ChecksumRequest, ObjectChecksum } from './checksum';
import type { MultipartRequest, RenewRequest } from './multipart';
import type { PreparedUploadBase } from './prepared-upload';

/**
 * How the endpoint prepares an upload: a signed PUT URL (`presigned`), temporary credentials for one object key
 * (`temporary-token`), or a signed POST form (`presigned-post`).
 */
export type UploadStrategy = (typeof UPLOAD_STRATEGIES)[number];

/**
 * JSON body the browser POSTs to the preparation endpoint.
 * Extra fields given by the caller (`body` option of the client) are sent beside these.
 */
export interface UploadRequestBody {
  /** Name of the picked file, as the browser reports it (`File.name`). */
  filename: string;
  /** Content type of the picked file (`File.type`, or `application/octet-stream` when unknown). */
  filetype: string;
  /**
   * Size of the picked file in bytes (`File.size`). Required by a server with a size limit; the presigned
   * strategy then signs it as Content-Length, so storage refuses any other size.
   */
  filesize?: number;
  /** Marker holding the chosen strategy, and the operation when it is not a plain preparation. */
  _upload: UploadMarker;
  /**
   * The upload route, on an endpoint with routes (`createUploadHandler({ routes })`); an unknown one answers
   * 404 `UNKNOWN_ROUTE`. Absent on an endpoint without routes (its one default route).
   */
  route?: string;
  /** Any extra fields supplied by the caller. */
  [extra: string]: unknown;
}

/**
 * The `_upload` marker of a request body: the strategy, and at most one operation.
 * - none: prepare an upload (a presigned PUT URL, or temporary credentials).
 * - `complete`: sent once the object is stored, when the preparation answer held a `receipt` (either
 *   strategy): the key and that receipt, so that the server checks the stored object (HEAD), deletes it if
 *   it breaks the size or type limits, and runs its completion hook. Answer: {@link UploadCompleteResponse}.
 * - `multipart` (presigned strategy): an operation of a presigned multipart upload.
 * - `renew` (temporary-token strategy): fresh credentials for the same key.
 */
export interface UploadMarker {
  strategy: UploadStrategy;
  /**
   * The checksum the browser will send (a preparation or a multipart `create`): see {@link ChecksumRequest}.
   * Absent: the route's own choice (a presigned single PUT then answers 400 `CHECKSUM_REQUIRED` when the
   * route wants one, as its value must be signed into the URL).
   */
  checksum?: ChecksumRequest;
  complete?: { key: string; receipt: string };
  multipart?: MultipartRequest;
  renew?: RenewRequest;
}

/**
 * Answer of the presigned strategy: a URL signed for one `PUT` of `key`, valid 3600 seconds. The PUT must
 * carry `Content-Type: <filetype>` and `Cache-Control: max-age=630720000`: both are signed headers.
 */
export interface PresignedUploadResponse extends PreparedUploadBase {
  /** The presigned PUT URL. */
  url: string;
  /**
   * Headers the PUT must carry, exactly as given: they are signed (Content-Type, Cache-Control, and
   * Content-Disposition when set). Older servers leave it out: then send Content-Type = filetype and
   * Cache-Control = {@link OBJECT_CACHE_CONTROL}.
   */
  headers?: Record<string, string>;
  /**
   * Present when the server wants to hear that the object is stored (it has a completion hook): the browser
   * sends it back in `_upload.complete` after the PUT. Opaque; HMAC-signed for `key`.
   */
  receipt?: string;
}

/**
 * Answer of the presigned-post strategy (and of the presigned strategy for a single upload on storage where a
 * presigned PUT is not safe: the server may answer a `presigned` preparation with this shape; an answer with
 * `fields` is a presigned POST). The browser sends one `multipart/form-data` POST to `url` (no preflight: a
 * simple cross-origin request): every entry of `fields`, in the given order and unchanged, then the file as the
 * last field, named `file`. The fields hold a SigV4 POST policy (valid 3600 seconds) that binds the bucket, the
 * exact `key`, `Content-Type`, `Cache-Control`, the size range (`content-length-range`), `x-amz-meta-*`,
 * tagging and `success_action_status` 201; storage refuses a form that breaks it (403) or a file outside the
 * range (400 `EntityTooLarge` / `EntityTooSmall`).
 */
export interface PresignedPostUploadResponse extends PreparedUploadBase {
  /** The bucket's POST URL (path-style `{endpoint}/{bucket}` or virtual-hosted `https://{bucket}.{host}/`). */
  url: string;
  /** The form fields, to send in this order before the file: key, Content-Type, policy, x-amz-signature, ... */
  fields: Record<string, string>;
  /** When the policy stops being accepted (ISO 8601, by the server's clock). */
  expiresAt: string;
  /**
   * Present when the server wants to hear that the object is stored (it has a completion hook or limits to
   * check): the browser sends it back in `_upload.complete` after the POST. Opaque; HMAC-signed for `key`.
   */
  receipt?: string;
}

/**
 * Temporary credentials as STS returns them (`GetFederationToken`, `AssumeRole`), limited by a session
 * policy to writing one object key. Nothing else of the STS answer (it names the federated user and the
 * account) is sent to the browser.
 */
export interface TemporaryCredentials {
  AccessKeyId: string;
  SecretAccessKey: string;
  SessionToken: string;
  /**
   * When the credentials stop working (ISO 8601): the server's `tokenDurationSeconds` (3600 by default) after
   * they were issued, by the server's clock (see `serverTime`). Always sent by `@upbeam/upload-server`.
   */
  Expiration?: string;
}

/**
 * Answer of the temporary-token strategy: credentials that may only write `key` (PutObject and multipart
 * upload, AbortMultipartUpload to clean up), valid 3600 seconds by default (`Credentials.Expiration`).
 */
export interface TemporaryTokenUploadResponse extends PreparedUploadBase {
  token: { Credentials: TemporaryCredentials };
  /** True when storage must be addressed `{endpoint}/{bucket}/{key}` (MinIO, Ceph, local servers). */
  forcePathStyle?: boolean;
  /** Content-Disposition to store the object with, when the server sets one. */
  contentDisposition?: string;
  /** User metadata (`x-amz-meta-*`) to store the object with, when the server sets some. */
  metadata?: Record<string, string>;
  /**
   * Present when the server limits the file size or type (storage cannot enforce them on these credentials)
   * or has a completion hook: the browser sends it back in `_upload.complete` once stored, and the server
   * checks the object and runs the hook.
   */
  receipt?: string;
  /**
   * Sent back in `_upload.renew` to get fresh credentials for the same key before these expire (a long
   * upload; see `RenewRequest`). Opaque; HMAC-signed by the server, accepted for 24 hours. Absent from
   * servers that cannot renew.
   */
  ticket?: string;
  /**
   * The server's clock when it answered (ISO 8601). The browser signs storage requests with these
   * credentials: it corrects its own clock by the difference when that is over 5 minutes (SPEC 9: clock
   * skew threshold 300000 ms), as storage refuses requests signed with a time that far off.
   */
  serverTime?: string;
}

/** Answer to `_upload.complete`: the object is stored and within the limits. */
export interface UploadCompleteResponse {
  key: string;
  /** Stored size in bytes. */
  size: number;
  /** What the server's completion hook returned (JSON), when it returned something. */
  serverData?: unknown;
  /**
   * The checksum of the whole stored object, as the client computed it from the bytes it sent and storage
   * verified; present when the upload ran with a checksum.
   */
  checksum?: ObjectChecksum;
  /** `true` when nothing was sent: storage already held these bytes under this key (content-addressed). */
  deduplicated?: true;
}

/** Body of every error answer of the endpoint (4xx with a `code`, or the 500 `Internal Server Error`). */
export interface UploadErrorBody {
  /** Human-readable message; for a 500 always `Internal Server Error`. */
  error: string;
  /** Machine-readable error code, on 4xx answers. */
  code?: string;
  /**
   * On a refusal by a quota or rate limit (`RATE_LIMITED`, `QUOTA_EXCEEDED`): which limit of the route refused,
   * `preparations` (a rate limit), `bytes` or `files` (per window) or `inFlight` (uploads at once).
   */
  limit?: 'preparations' | 'bytes' | 'files' | 'inFlight';
  /**
   * On a refusal by a quota or rate limit: seconds until that limit frees (its window ends, or the first upload in
   * flight expires), at least 1; the same as the answer's `Retry-After` header.
   */
  retryAfter?: number;
  /**
   * On `CHECKSUM_REQUIRED` and `CHECKSUM_UNSUPPORTED` (`ChecksumErrorCode`): the algorithm the route takes.
   */
  checksum?: ChecksumAlgorithm;
}

/**
 * What a finished upload resolves to. `ServerData` is the type of `serverData`: a route's
 * `onUploadComplete` return type with typed routes (`uploadFile<typeof routes, 'avatar'>`), else `unknown`.
 */
export interface UploadResult<ServerData = unknown> {
  /** Address of the stored object (no query string). */
  url: string;
  /** Bucket name. */
  bucket: string;
  /** Object key. */
  key: string;
  /**
   * What the server's completion hook (`onUploadComplete`) returned for this upload, as JSON; absent when
   * the server has no hook or it returned nothing. Typed `unknown` unless the route's type is given: then
   * check its shape before use.
   */
  serverData?: ServerData;
  /**
   * The object's checksum, as the client computed it from the bytes it sent and storage verified, when the
   * upload ran with one (the client's `checksum` option, else the route's).
   */
  checksum?: ObjectChecksum;
  /** `true` when no byte was sent: storage already held these bytes (a content-addressed route). */
  deduplicated?: true;
}
