/**
 * The handler's configuration, as types only: what `createUploadHandler`, `reconcileUploads`,
 * `completeNotifiedUploads` and the doctor take. It lives apart from the handler so that every part that reads
 * it (the app, the operations, reconcile) imports it from here, below them all.
 */
import type { UploadRequestBody } from '@upbeam/upload-protocol';
import type { Env } from './env';
import type { BeforeUploadHook } from './hooks';
import type { LimitStore, UploadLimits } from './limit-store';
import type { UploadRoute, UploadRoutes } from './routes';
import type { StorageSettings } from './storage-config';
import type { TokenSettings } from './temporary-token';
import type { UploadCompleteHook } from './upload-completion';
import type { UploadPolicySettings } from './upload-policy';

/**
 * Configuration of {@link createUploadHandler}. Storage settings, `roleArn` and `stsEndpoint` fall back to
 * `S3_UPLOAD_*` env variables (the table: `SETTING_ENV`).
 */
export interface UploadHandlerConfig extends StorageSettings, TokenSettings, UploadPolicySettings {
  /**
   * Every object key must start with this prefix (a `/` is added when missing); `''` allows any key.
   * Default keys are `{keyPrefix}{nanoid}/{sanitized filename}`.
   * @default 'next-s3-uploads/'
   */
  keyPrefix?: string;
  /**
   * Chooses the object key. Gets the checked request body (with the caller's extra fields) and the
   * original Request (for cookies, headers). May be async. The result is checked: under `keyPrefix`, at
   * most 1024 bytes, no `..` or empty segment, no control or bidirectional-override character.
   * @default `next-s3-uploads/{nanoid}/{sanitized filename}`
   */
  key?: (body: UploadRequestBody, request: Request) => string | Promise<string>;
  /**
   * Authorize, choose the key, add metadata or a disposition; throw an `UploadError` (4xx) to refuse. Runs
   * for every preparation, a multipart `create` and a temporary-token `renew` (whose key it cannot change),
   * not for the later multipart operations, which their ticket authorizes.
   */
  onBeforeUpload?: BeforeUploadHook;
  /**
   * Runs once per upload when the browser reports it stored, after the handler checked the object on storage
   * (HEAD: `{ key, size, etag, contentType, metadata, lastModified, idempotencyKey, source: 'page', request }`, the
   * `checksum` the server signed into the upload (checked against storage's, HEAD in checksum mode), `deduplicated:
   * true` when a content-addressed upload sent nothing, and
   * `context`: what `onBeforeUpload` returned at preparation but its `key`, `metadata` and
   * `contentDisposition`, carried signed in the receipt or ticket, at most 1 KiB of JSON), or when
   * `reconcileUploads` / `completeNotifiedUploads` find it unreported (`source: 'reconcile'`, no `request`, the
   * `context` read from the upload's record, written signed at preparation under `.upbeam/uploads/`); what it
   * returns (JSON, at most 64 KiB) reaches the browser's result as `serverData`. With it, every preparation
   * answer carries a `receipt` (a multipart upload's `ticket` serves as one) and the client reports
   * completion. Once: a marker object `.upbeam/completions/{idempotencyKey}.json` claimed with
   * `If-None-Match: *` holds the answer, so a repeated report (any instance) gets the first answer; on
   * storage that ignores `If-None-Match` on PUT (s3rver), two reports at the same moment can both run it:
   * dedupe on `idempotencyKey` there. An `UploadError` thrown answers its 4xx (the object is kept); anything
   * else is logged and answered 500, and a later report runs the hook again. Needs `s3:GetObject`,
   * `s3:PutObject` and `s3:DeleteObject` on the bucket for the server's credentials; each preparation writes
   * the upload's record (one PUT; a failed write fails the preparation).
   */
  onUploadComplete?: UploadCompleteHook;
  /**
   * Lifetime of a presigned URL (a single PUT, or one UploadPart of a multipart upload), in seconds.
   * @default 3600
   */
  expiresIn?: number;
  /**
   * Tags of every object this handler (or route) stores, e.g. `{ kind: 'avatar' }`. On the presigned
   * strategy they are signed into the PUT as the `x-amz-tagging` header with the request's own `tags`
   * (allowed with `allowObjectTagging`; these win on a shared key), and an empty one is signed when there are
   * none, so that storage refuses a PUT whose browser adds or changes tags (403). The bucket's CORS rule
   * must allow the `x-amz-tagging` request header (`AllowedHeaders: ["*"]` does). A presigned multipart
   * upload gets the same tags from its CreateMultipartUpload (the server's credentials then need
   * `s3:PutObjectTagging`). Not applied to temporary-token uploads (there the client sets the request's tags
   * after upload, with `allowObjectTagging`).
   */
  tags?: Record<string, string>;
  /**
   * Where the settings this config leaves out are read (`S3_UPLOAD_*`: the table `SETTING_ENV`). On
   * Cloudflare Workers, the Worker's `env` (no `process.env` there without `nodejs_compat`).
   * @default process.env (none where the runtime has no `process`)
   */
  env?: Env;
  /**
   * Quotas and rate limits per subject (the user, org or IP that `onBeforeUpload` returns as `subject`; by
   * default the client's IP address as the node adapter sees it), checked at every preparation (a single PUT, a
   * temporary token, a multipart `create`; not a renewal): preparations per window (`RATE_LIMITED`), bytes and
   * files per window and uploads in flight at once (`QUOTA_EXCEEDED`), both 429 with `Retry-After` (seconds).
   * Windows are fixed, aligned to the epoch (a day starts at 00:00 UTC). Bytes are reserved with the declared
   * `filesize` (required with a `bytes` limit, and signed as the presigned PUT's Content-Length, so storage
   * enforces it), settled to the stored size when the upload completes (the page's report, which every
   * preparation then asks for with a `receipt`, or `reconcileUploads` / `completeNotifiedUploads`), and given
   * back when a multipart upload is aborted or the upload's receipt or ticket ends unreported (2 h for a single
   * PUT, 26 h for a temporary token, 24 h for a multipart upload). A temporary-token or multipart upload stored
   * larger than declared is deleted at completion (413 `FILE_TOO_LARGE`). On the handler, the limits of every
   * route that sets none, counted together; a route's own `limits` replace them and are counted apart (`{}`:
   * none). Unset: no limits.
   * @example
   * limits: { preparations: { max: 60, windowSeconds: 60 }, bytes: { max: 5 * 1024 ** 3, windowSeconds: 86_400 }, inFlight: 3 }
   */
  limits?: UploadLimits;
  /**
   * Where `limits` are counted. The default counts in this process's memory (`memoryLimitStore()`, one per
   * configuration object): right for one server process only, since each process would count on its own.
   * With several processes, share one store: `redisLimitStore` of `@upbeam/upload-server/redis`. Handler-level.
   * @default memoryLimitStore()
   */
  limitStore?: LimitStore;
  /**
   * What a preparation does when the limit store cannot answer (down, timed out); the store's error goes to
   * `onError` either way. `'fail-closed'`: 503 `LIMITS_UNAVAILABLE` ("Upload limits cannot be checked right
   * now. Try again later."), nothing prepared. `'fail-open'`: granted unchecked and uncounted. Handler-level.
   * @default 'fail-closed'
   */
  limitStoreFailure?: 'fail-closed' | 'fail-open';
  /**
   * Receives every unexpected error (answered with 500 `Internal Server Error`), including storage and
   * STS errors and missing settings.
   * @default console.error
   */
  onError?: (error: unknown) => void;
}

/** A handler's whole configuration: the shared settings and, optionally, its routes (`defineRoutes`). */
export type HandlerConfig = UploadHandlerConfig & { routes?: UploadRoutes };

/**
 * One route's settings: its own over the shared ones (`prefixedRoutes`), with the strategies it allows and
 * whether its keys are content-addressed.
 */
export type RouteConfig = UploadHandlerConfig & Pick<UploadRoute, 'strategies' | 'contentAddressed'>;
