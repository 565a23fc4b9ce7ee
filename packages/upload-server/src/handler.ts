import type {
  MultipartRequest,
  MultipartUploadResponse,
  RenewRequest,
  PresignedUploadResponse,
  TemporaryTokenUploadResponse,
  UploadCompleteResponse,
  CompleteMultipartResponse,
  UploadRequestBody,
} from '@upbeam/upload-protocol';
import { errorToResponse, UploadError } from './errors';
import type { BeforeUploadHook, BeforeUploadResult } from './hooks';
import { assertValidObjectKey, DEFAULT_KEY_PREFIX, defaultObjectKey } from './object-key';
import { createPresigner, PRESIGNED_URL_EXPIRES_IN, type Presigner } from './presign';
import { assertNextS3CanSend } from './next-s3-marker';
import { readUploadRequest, type BodyAdmission } from './request-body';
import { processEnv, resolveStorageSettings, resolveStsSettings, type Env, type ResolvedStorageSettings, type StorageSettings } from './settings';
import { createStorageClient } from './storage-client';
import { createRenewTickets, createTokenIssuer, type RenewTicketFields, type TokenIssuer, type TokenSettings } from './temporary-token';
import type { Tickets } from './ticket';
import { checkUploadPolicy, defaultContentDisposition, type UploadPolicySettings } from './upload-policy';
import { createMultipartStorage } from './multipart-storage';
import { createMultipartOperations, createMultipartTickets, type MultipartOperations } from './multipart-upload';
import { createPartPresigner } from './part-presign';
import { providerStsEndpoint, resolveProvider } from './providers';
import { createReceipts, RECEIPT_TTL_SECONDS, UPLOAD_LIFETIME_SECONDS, type Receipts } from './upload-receipt';
import { handlerScope } from './hmac';
import { COMPLETION_MARKER_PREFIX, createCompletion, type Completion, type UploadCompleteHook } from './upload-completion';

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
   * (HEAD: `{ key, size, etag, contentType, metadata, lastModified, idempotencyKey, request }`); what it
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

/** The object a new upload stores: its key, and the headers set with it. */
interface DecidedObject {
  key: string;
  contentDisposition: string | undefined;
  metadata: Record<string, string> | undefined;
}

/** A `"ticket": "..."` member in raw JSON text (a ticket is base64url with one dot, at most 4096 characters). */
const TICKET_FIELD = /"ticket"\s*:\s*"([A-Za-z0-9_.-]{1,4096})"/;

/** A Fetch API handler: works as-is in Next.js App Router, Hono, Bun, Deno and workers. */
export type UploadHandler = (request: Request) => Promise<Response>;

/** Builds `value` on first use and keeps it: settings are read on the first request, not at import. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

function baseAnswer(settings: ResolvedStorageSettings, key: string) {
  return {
    key,
    bucket: settings.bucket,
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    // The browser sends a Content-MD5 with each PUT when asked (storage verifies it: `checksum` setting).
    ...(settings.checksum === undefined ? {} : { checksum: settings.checksum }),
  };
}

/**
 * Creates the preparation endpoint (mounted by the app at `/api/s3-upload` by default). It answers a POST
 * of `{ filename, filetype, filesize?, _upload: { strategy, ...operation }, ...extra }`:
 * - `presigned`: `{ key, bucket, region, endpoint?, checksum?, url, headers }`, `url` a PUT URL valid `expiresIn`
 *   seconds that binds the `headers` (Content-Type: filetype, Cache-Control: `OBJECT_CACHE_CONTROL`,
 *   `x-amz-acl`: `objectAcl`, and Content-Disposition when set) and, with `maxFileSize`, the declared
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
export function createUploadHandler(config: UploadHandlerConfig = {}): UploadHandler {
  const expiresIn = config.expiresIn ?? PRESIGNED_URL_EXPIRES_IN;
  const keyPrefix = config.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const log = config.onError ?? ((error: unknown) => console.error('[upbeam] upload preparation failed:', error));
  const env = () => config.env ?? processEnv();
  const settings = once(() => resolveStorageSettings(config, env()));
  const client = once(() => createStorageClient(settings()));
  // The presigned PUT asks for the S3 client only when the bucket's address needs the SDK's endpoint rules.
  const presign = once((): Presigner => createPresigner(settings(), client));
  const issueToken = once((): TokenIssuer => {
    const sts = resolveStsSettings(config, env());
    // Provider preset (providers.ts): refuses providers without STS, fills in a known STS endpoint.
    const stsEndpoint = providerStsEndpoint(resolveProvider(config, env()), sts, settings().endpoint);
    return createTokenIssuer(settings(), { ...config, roleArn: sts.roleArn, stsEndpoint });
  });

  // Receipts and tickets are signed within this handler's scope: another handler refuses them.
  const scope = once(() => handlerScope(settings().bucket, keyPrefix));
  const receipts = once((): Receipts => createReceipts(settings().secretAccessKey, { scope: scope() }));
  const completion = once(
    async (): Promise<Completion> =>
      createCompletion({ settings: settings(), client: await client(), policy: config, onUploadComplete: config.onUploadComplete }),
  );

  /**
   * `_upload.complete`: the browser reports a stored object with the `receipt` of its preparation answer;
   * the object is checked (HEAD; deleted when too large or of a type not allowed) and `onUploadComplete` runs.
   */
  const complete = async ({ key, receipt }: { key: string; receipt: string }, request: Request): Promise<Response> => {
    await receipts().verify(key, receipt);
    const answer: UploadCompleteResponse = await (await completion()).complete(key, request);
    return Response.json(answer);
  };

  const multipartTickets = once(() => createMultipartTickets(settings().secretAccessKey, { scope: scope() }));
  const multipart = once(
    async (): Promise<MultipartOperations> =>
      createMultipartOperations({
        bucket: settings().bucket,
        storage: createMultipartStorage(settings(), await client()),
        presignPart: createPartPresigner(settings(), client),
        tickets: multipartTickets(),
        expiresIn,
      }),
  );

  /**
   * A body longer than 16 KiB is read on (up to 1 MiB: a multipart `complete` of up to 10000 parts) only when
   * its first 16 KiB name a multipart ticket this handler issued: Upbeam's client writes the ticket before
   * the parts. Anyone else's large body is refused at 16 KiB, before it is parsed.
   */
  const admitLargeBody: BodyAdmission = async (head) => {
    const ticket = TICKET_FIELD.exec(head)?.[1];
    if (ticket === undefined) return false;
    return multipartTickets().verify(ticket).then(
      () => true,
      () => false,
    );
  };

  /** `onBeforeUpload` (authorization, and what it decides), then the declared type and size are checked. */
  const authorize = async (body: UploadRequestBody, request: Request): Promise<BeforeUploadResult> => {
    const decided: BeforeUploadResult = config.onBeforeUpload ? ((await config.onBeforeUpload({ body, request })) ?? {}) : {};
    checkUploadPolicy(config, body);
    return decided;
  };

  /** The object a new upload will store: authorized and checked ({@link authorize}), then its key chosen. */
  const decideObject = async (body: UploadRequestBody, request: Request): Promise<DecidedObject> => {
    const decided = await authorize(body, request);
    const key = decided.key ?? (config.key ? await config.key(body, request) : defaultObjectKey(body.filename, keyPrefix));
    assertValidObjectKey(key, keyPrefix);
    if (key.startsWith(COMPLETION_MARKER_PREFIX)) {
      throw new UploadError('INVALID_OBJECT_KEY', `Object keys under "${COMPLETION_MARKER_PREFIX}" hold completion markers.`);
    }
    const contentDisposition = decided.contentDisposition ?? defaultContentDisposition(body.filetype);
    return { key, contentDisposition, metadata: decided.metadata };
  };

  /** Storage cannot bind a size or type to credentials: they are checked at completion, as the hook runs there. */
  const tokenNeedsReceipt =
    config.maxFileSize !== undefined || config.allowedContentTypes !== undefined || config.onUploadComplete !== undefined;

  const renewTickets = once((): Tickets<RenewTicketFields> => createRenewTickets(settings().secretAccessKey, { scope: scope() }));

  /**
   * Temporary credentials for `object.key`, a renew `ticket` for the same key, the server's time (the
   * browser corrects a skewed clock by it) and, with `maxFileSize`, a receipt. `firstIssuedAt` is when the
   * upload was first prepared (seconds since the epoch; now for a new upload, the ticket's on a renewal):
   * credentials, ticket and receipt all end by {@link UPLOAD_LIFETIME_SECONDS} after it.
   */
  const tokenAnswer = async (object: DecidedObject, firstIssuedAt = Math.floor(Date.now() / 1000)): Promise<Response> => {
    const resolved = settings();
    const writableUntil = firstIssuedAt + UPLOAD_LIFETIME_SECONDS;
    const Credentials = await issueToken()(object.key, writableUntil);
    const { ticket } = await renewTickets().issue({ bucket: resolved.bucket, key: object.key, firstIssuedAt }, writableUntil);
    const answer: TemporaryTokenUploadResponse = {
      token: { Credentials },
      ...baseAnswer(resolved, object.key),
      ...(resolved.forcePathStyle ? { forcePathStyle: true } : {}),
      ...(object.contentDisposition === undefined ? {} : { contentDisposition: object.contentDisposition }),
      ...(object.metadata === undefined ? {} : { metadata: object.metadata }),
      ...(tokenNeedsReceipt ? { receipt: await receipts().issue(object.key, writableUntil + RECEIPT_TTL_SECONDS) } : {}),
      ticket,
      serverTime: new Date().toISOString(),
    };
    return Response.json(answer);
  };

  /**
   * `_upload.renew`: fresh credentials for the key of the ticket. `onBeforeUpload` and the type and size
   * checks run again (the user may have signed out); a key it returns is ignored: the ticket's key stays.
   */
  const renew = async ({ ticket }: RenewRequest, body: UploadRequestBody, request: Request): Promise<Response> => {
    const { bucket, key, firstIssuedAt } = await renewTickets().verify(ticket);
    if (bucket !== settings().bucket) throw new UploadError('INVALID_TICKET', 'The upload ticket is not valid: start the upload again.');
    const decided = await authorize(body, request);
    assertValidObjectKey(key, keyPrefix);
    const contentDisposition = decided.contentDisposition ?? defaultContentDisposition(body.filetype);
    return tokenAnswer({ key, contentDisposition, metadata: decided.metadata }, firstIssuedAt);
  };

  /** `_upload.multipart`: `create` is a new upload (decided like a single PUT); the rest act on its ticket. */
  const runMultipart = async (operation: MultipartRequest, body: UploadRequestBody, request: Request): Promise<Response> => {
    if (operation.action === 'complete' && config.onUploadComplete) {
      const completed = (await (await multipart()).continue(operation)) as CompleteMultipartResponse;
      const { serverData } = await (await completion()).complete(completed.key, request);
      const answer: CompleteMultipartResponse = serverData === undefined ? completed : { ...completed, serverData };
      return Response.json(answer);
    }
    if (operation.action !== 'create') return Response.json(await (await multipart()).continue(operation));
    const object = await decideObject(body, request);
    const created = await (await multipart()).create({
      ...object,
      contentType: body.filetype,
      filesize: body.filesize,
      partSize: operation.partSize,
    });
    const answer: MultipartUploadResponse = { ...baseAnswer(settings(), object.key), ...created };
    return Response.json(answer);
  };

  return async (request) => {
    try {
      const body = await readUploadRequest(request, admitLargeBody);
      const resolved = settings();
      if (body._upload.complete) return await complete(body._upload.complete, request);
      if (body._upload.multipart) return await runMultipart(body._upload.multipart, body, request);
      if (body._upload.renew) return await renew(body._upload.renew, body, request);
      const { key, contentDisposition, metadata } = await decideObject(body, request);

      if (body._upload.strategy === 'presigned') {
        if (Object.hasOwn(body, '_nextS3')) assertNextS3CanSend(resolved);
        const { url, headers } = await presign()({
          key,
          contentType: body.filetype,
          expiresIn,
          contentLength: config.maxFileSize === undefined ? undefined : body.filesize,
          contentDisposition,
          metadata,
        });
        const receipt = config.onUploadComplete ? { receipt: await receipts().issue(key) } : {};
        const answer: PresignedUploadResponse = { ...baseAnswer(resolved, key), url, headers, ...receipt };
        return Response.json(answer);
      }
      return await tokenAnswer({ key, contentDisposition, metadata });
    } catch (error) {
      return errorToResponse(error, log);
    }
  };
}
