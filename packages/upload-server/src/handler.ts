import type { RouteRulesResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { errorToResponse } from './errors';
import type { BeforeUploadHook } from './hooks';
import { readUploadRequest, type BodyAdmission } from './request-body';
import { createRouteEndpoint } from './route-endpoint';
import { assertValidRoutes, pickRoute, publicRules, type UploadRoutes } from './routes';
import type { Env, StorageSettings } from './settings';
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
   * (HEAD: `{ key, size, etag, contentType, metadata, lastModified, idempotencyKey, source: 'page', request }`),
   * or when `reconcileUploads` / `completeNotifiedUploads` find it unreported (`source: 'reconcile'`, no
   * `request`); what it
   * returns (JSON, at most 64 KiB) reaches the browser's result as `serverData`. With it, every preparation
   * answer carries a `receipt` (a multipart upload's `ticket` serves as one) and the client reports
   * completion. Once: a marker object `.upbeam/completions/{idempotencyKey}.json` claimed with
   * `If-None-Match: *` holds the answer, so a repeated report (any instance) gets the first answer; on
   * storage that ignores `If-None-Match` on PUT (s3rver), two reports at the same moment can both run it:
   * dedupe on `idempotencyKey` there. An `UploadError` thrown answers its 4xx (the object is kept); anything
   * else is logged and answered 500, and a later report runs the hook again. Needs `s3:GetObject`,
   * `s3:PutObject` and `s3:DeleteObject` on the bucket for the server's credentials.
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
   * must allow the `x-amz-tagging` request header (`AllowedHeaders: ["*"]` does). Not applied to multipart
   * or temporary-token uploads (there the client sets tags after upload, with `allowObjectTagging`).
   */
  tags?: Record<string, string>;
  /**
   * Where the settings this config leaves out are read (`S3_UPLOAD_*`: the table `SETTING_ENV`). On
   * Cloudflare Workers, the Worker's `env` (no `process.env` there without `nodejs_compat`).
   * @default process.env (none where the runtime has no `process`)
   */
  env?: Env;
  /**
   * Receives every unexpected error (answered with 500 `Internal Server Error`), including storage and
   * STS errors and missing settings.
   * @default console.error
   */
  onError?: (error: unknown) => void;
}

/** A Fetch API handler: works as-is in Next.js App Router, Hono, Bun, Deno and workers. */
export type UploadHandler = (request: Request) => Promise<Response>;

/**
 * Creates the preparation endpoint (mounted by the app at `/api/s3-upload` by default). It answers a POST
 * of `{ filename, filetype, filesize?, _upload: { strategy, ...operation }, ...extra }`:
 * - `presigned`: `{ key, bucket, region, endpoint?, checksum?, url, headers }`, `url` a PUT URL valid `expiresIn`
 *   seconds that binds the `headers` (Content-Type: filetype, Cache-Control: `OBJECT_CACHE_CONTROL`,
 *   `x-amz-acl`: `objectAcl`, `x-amz-tagging`: the `tags`, empty without, and Content-Disposition when set) and, with `maxFileSize`, the declared
 *   size as Content-Length.
 * - `temporary-token`: `{ token: { Credentials }, key, bucket, region, endpoint?, checksum?, forcePathStyle?,
 *   ticket, serverTime }`, credentials valid `tokenDurationSeconds` (3600 by default; `Credentials.Expiration`) that
 *   may only write `key`, with no public ACL or grant (STS GetFederationToken, or AssumeRole when `roleArn`
 *   is set; with `stsEndpoint` too, a role whose tokens can assume it again is refused: see `roleArn`). `serverTime` is the
 *   server's clock (ISO 8601): the browser corrects a skewed clock by it.
 *
 * Operations in the marker (shapes in `@upbeam/upload-protocol`, `MultipartRequest` and `RenewRequest`):
 * - `_upload.multipart` (presigned): a multipart upload, for files over 5 GiB or faster large uploads.
 *   `create` (CreateMultipartUpload with the object's headers; `onBeforeUpload`, `allowedContentTypes` and
 *   `maxFileSize` apply as to a single PUT, `filesize` required) answers `{ ..., uploadId, partSize, ticket,
 *   ticketExpiresAt }`; `sign-parts`, `list-parts`, `complete` and `abort` act only on the upload their
 *   `ticket` names. The ticket (HMAC-SHA-256 with a key derived from `secretAccessKey`, stateless, 24 hours)
 *   binds bucket, key, upload id, file size, part size and content type: no client can sign parts for,
 *   complete or abort another upload. Size: each UploadPart URL signs its part's exact Content-Length and
 *   part numbers past `ceil(filesize / partSize)` are refused, so storage enforces the declared size, which
 *   `maxFileSize` checked at `create`. The server's credentials need `s3:PutObject`,
 *   `s3:AbortMultipartUpload`, `s3:ListMultipartUploadParts` (resume) and `s3:GetObject` (HEAD when a
 *   retried `complete` finds the upload already done).
 * - `_upload.renew` (temporary-token): `{ ticket }` of a previous answer gives fresh credentials for the
 *   same key (a long upload renews before expiry). `onBeforeUpload` and the type and size checks run again;
 *   the key is the ticket's, whatever `key`/`onBeforeUpload` return.
 * - `_upload.complete` (either strategy): `{ key, receipt }` of a preparation answer that held a `receipt`;
 *   see below.
 *
 * Completion: with `onUploadComplete`, every preparation answer carries a `receipt` (HMAC-signed for its
 * key, 2 hours); the temporary-token answer carries one also with `maxFileSize` or `allowedContentTypes`
 * (storage cannot bind them to credentials). The browser sends `_upload: { strategy, complete: { key,
 * receipt } }` once stored (a presigned multipart `complete` needs none: its ticket names the key, and the
 * hook runs in that request), and the handler checks the object (HEAD; needs `s3:GetObject`), deletes it
 * when larger than `maxFileSize` (413) or of a type `allowedContentTypes` does not list (415; needs
 * `s3:DeleteObject`), then runs `onUploadComplete` once; the answer is `{ key, size, serverData? }`. A
 * client that skips this call keeps its object: treat keys as valid only once completed.
 *
 * Checksums: with the `checksum` setting on (the default for AWS S3 and the providers whose storage verifies
 * `Content-MD5`: `PROVIDER_PRESETS`), every preparation answer holds `checksum: 'md5'` and the browser sends
 * a `Content-MD5` with each PUT of the file or of a part.
 *
 * HTML, SVG, XML and JavaScript files are stored with `Content-Disposition: attachment` unless
 * `onBeforeUpload` sets a disposition: opened from the bucket they download instead of running.
 *
 * Request bodies are capped at 16 KiB, except a multipart `complete` (1 MiB: 10000 parts with their ETags).
 *
 * Routes: with `routes` (`defineRoutes`), each route's settings apply over the shared ones to the requests
 * whose body names it (`route`); a body naming none or another gets 404 `UNKNOWN_ROUTE`. Receipts and
 * tickets are signed within the route: another route refuses them. A GET answers each route's public rules,
 * `{ routes: { [name]: { allowedContentTypes?, maxFileSize?, maxFiles?, strategies } } }`. Without `routes`
 * the handler is one default route (no `route` read, 405 to a GET).
 * @throws {@link UploadError} `INVALID_SETTINGS` at once for empty `routes`, a route name that is not 1-64 of
 *   `[A-Za-z0-9_-]`, or an unknown strategy.
 *
 * Settings are resolved on the first request, so that a missing variable does not break a build that
 * merely imports the route. Errors: 4xx `{ error, code }` for a wrong or refused request (400, 401, 403,
 * 404, 405, 413, 415; codes in `UPLOAD_ERROR_STATUS`), 501 `NOT_SUPPORTED` for `list-parts` on storage
 * without ListParts; any other failure, including missing settings (`Upbeam: Missing ENVs ...`), an
 * invalid key from `key`/`onBeforeUpload`, and storage or STS errors (but NoSuchUpload, answered 404
 * `NO_SUCH_UPLOAD` with our own text), is passed to `onError` and answered with 500
 * `{ error: 'Internal Server Error' }`.
 *
 * @example
 * // app/api/s3-upload/route.ts (Next.js App Router)
 * import { createUploadHandler } from '@upbeam/upload-server';
 * export const POST = createUploadHandler({ allowedContentTypes: ['image/*'], maxFileSize: 10 * 1024 * 1024 });
 */
export function createUploadHandler<const R extends UploadRoutes = UploadRoutes>(config: UploadHandlerConfig & { routes?: R } = {}): UploadHandler {
  const { routes, ...shared } = config;
  const log = config.onError ?? ((error: unknown) => console.error('[upbeam] upload preparation failed:', error));
  if (routes === undefined) {
    const endpoint = createRouteEndpoint(shared, undefined);
    return async (request) => {
      try {
        return await endpoint.handle(await readUploadRequest(request, endpoint.admitLargeBody), request);
      } catch (error) {
        return errorToResponse(error, log);
      }
    };
  }
  assertValidRoutes(routes);
  const endpoints = new Map(Object.entries(routes).map(([name, route]) => [name, createRouteEndpoint({ ...shared, ...route }, name)]));
  const names: ReadonlySet<string> = new Set(endpoints.keys());
  const rules: RouteRulesResponse = { routes: Object.fromEntries(Object.entries(routes).map(([name, route]) => [name, publicRules(route)])) };
  /** A large body is read on when its ticket is one of any route's; the route then checks it is its own. */
  const admitLargeBody: BodyAdmission = async (head) => {
    for (const endpoint of endpoints.values()) if (await endpoint.admitLargeBody(head)) return true;
    return false;
  };
  return async (request) => {
    try {
      if (request.method === 'GET') return Response.json(rules);
      const body = await readUploadRequest(request, admitLargeBody);
      return await endpoints.get(pickRoute(body, names))!.handle(body, request);
    } catch (error) {
      return errorToResponse(error, log);
    }
  };
}
