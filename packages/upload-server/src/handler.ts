import type { UploadRequestBody } from '@upbeam/upload-protocol';
import { errorToAnswer } from './errors';
import type { BeforeUploadHook } from './hooks';
import { fetchIncoming, withIncomingEntry, type IncomingHandler } from './incoming-request';
import { ok, toResponse } from './json-answer';
import { readUploadRequest, type BodyAdmission } from './request-body';
import { createRouteEndpoint } from './route-endpoint';
import { assertValidRoutes, listedRules, pickRoute, type UploadRoutes } from './routes';
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
   * (HEAD: `{ key, size, etag, contentType, metadata, lastModified, idempotencyKey, source: 'page', request }`, and
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
   * Receives every unexpected error (answered with 500 `Internal Server Error`), including storage and
   * STS errors and missing settings.
   * @default console.error
   */
  onError?: (error: unknown) => void;
}

/** A Fetch API handler: works as-is in Next.js App Router, Hono, Bun, Deno and workers. */
export type UploadHandler = (request: Request) => Promise<Response>;

/**
 * Creates the preparation endpoint, a Fetch `Request -> Response` handler the app mounts at
 * `/api/s3-upload` (the client's default). The browser POSTs `{ filename, filetype, filesize?, _upload }`
 * (`UploadRequestBody` of `@upbeam/upload-protocol`) and gets what it needs to send the file straight to
 * storage: a presigned PUT URL, temporary credentials for one object key, or the operations of a presigned
 * multipart upload; with `onUploadComplete`, it also takes the browser's report once the object is stored.
 * With `routes` (`defineRoutes`), each route's settings apply to the requests that name it, and a GET answers
 * the routes' public rules.
 *
 * Settings are read on the first request (a missing variable does not break a build that only imports the
 * route). A wrong or refused request gets a 4xx `{ error, code }` (codes in `UPLOAD_ERROR_STATUS`); any other
 * failure (missing settings, storage or STS errors, a throwing hook) is passed to `onError` and answered
 * with 500 `{ error: 'Internal Server Error' }`: storage and STS error text never reaches the browser.
 *
 * The guides (getting started, strategies, routes, large files, the completion hook, security): the docs
 * site's `docs/guide/`; the wire contract: docs/spec.md.
 * @throws {@link UploadError} `INVALID_SETTINGS` at once for empty `routes`, a route name that is not 1-64 of
 *   `[A-Za-z0-9_-]`, or an unknown strategy.
 *
 * @example
 * // app/api/s3-upload/route.ts (Next.js App Router)
 * import { createUploadHandler } from '@upbeam/upload-server';
 * export const POST = createUploadHandler({ allowedContentTypes: ['image/*'], maxFileSize: 10 * 1024 * 1024 });
 */
export function createUploadHandler<const R extends UploadRoutes = UploadRoutes>(config: UploadHandlerConfig & { routes?: R } = {}): UploadHandler {
  const answer = createAnswering(config);
  // The Fetch handler, and the same entry without a Request and a Response around it (`toNodeHandler`).
  return withIncomingEntry(async (request: Request) => toResponse(await answer(fetchIncoming(request))), answer);
}

/** The handler's logic: a request in, its JSON answer out (`incoming-request.ts`, `json-answer.ts`). */
function createAnswering(config: UploadHandlerConfig & { routes?: UploadRoutes }): IncomingHandler {
  const { routes, ...shared } = config;
  const log = config.onError ?? ((error: unknown) => console.error('[upbeam] upload preparation failed:', error));
  if (routes === undefined) {
    const endpoint = createRouteEndpoint(shared, undefined);
    return async (incoming) => {
      try {
        return await endpoint.handle(await readUploadRequest(incoming, endpoint.admitLargeBody), incoming);
      } catch (error) {
        return errorToAnswer(error, log);
      }
    };
  }
  assertValidRoutes(routes);
  const endpoints = new Map(Object.entries(routes).map(([name, route]) => [name, createRouteEndpoint({ ...shared, ...route }, name)]));
  const names: ReadonlySet<string> = new Set(endpoints.keys());
  /** A large body is read on when its ticket is one of any route's; the route then checks it is its own. */
  const admitLargeBody: BodyAdmission = async (head) => {
    for (const endpoint of endpoints.values()) if (await endpoint.admitLargeBody(head)) return true;
    return false;
  };
  return async (incoming) => {
    try {
      if (incoming.method === 'GET') return ok(await listedRules(routes, () => incoming.request));
      const body = await readUploadRequest(incoming, admitLargeBody);
      return await endpoints.get(pickRoute(body, names))!.handle(body, incoming);
    } catch (error) {
      return errorToAnswer(error, log);
    }
  };
}
