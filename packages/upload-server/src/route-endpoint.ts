import type {
  CompleteMultipartResponse,
  MultipartRequest,
  MultipartUploadResponse,
  PresignedUploadResponse,
  RenewRequest,
  TemporaryTokenUploadResponse,
  UploadCompleteResponse,
  UploadRequestBody,
  UploadStrategy,
} from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { UploadHandlerConfig } from './handler';
import type { BeforeUploadResult } from './hooks';
import { assertNextS3CanSend } from './next-s3-marker';
import { assertValidObjectKey, defaultObjectKey } from './object-key';
import { presignedTagging } from './object-tags';
import type { BodyAdmission } from './request-body';
import { createRouteServices } from './route-services';
import type { UploadRoute } from './routes';
import type { ResolvedStorageSettings } from './settings';
import { COMPLETION_MARKER_PREFIX } from './upload-completion';
import { checkUploadPolicy, defaultContentDisposition } from './upload-policy';
import { RECEIPT_TTL_SECONDS, UPLOAD_LIFETIME_SECONDS } from './upload-receipt';

/**
 * The operations of one route (prepare, renew, complete, multipart), over its services
 * (`route-services.ts`), and their dispatch by the body's `_upload` marker.
 */

/** The object a new upload stores: its key, and the headers set with it. */
interface DecidedObject {
  key: string;
  contentDisposition: string | undefined;
  metadata: Record<string, string> | undefined;
}

/** A `"ticket": "..."` member in raw JSON text (a ticket is base64url with one dot, at most 4096 characters). */
const TICKET_FIELD = /"ticket"\s*:\s*"([A-Za-z0-9_.-]{1,4096})"/;

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

/** One route's operations: a handler without routes has one, with `route` undefined. */
export interface RouteEndpoint {
  /** Answers a checked request body of this route. */
  handle(body: UploadRequestBody, request: Request): Promise<Response>;
  admitLargeBody: BodyAdmission;
}

export function createRouteEndpoint(config: UploadHandlerConfig & Pick<UploadRoute, 'strategies'>, route: string | undefined): RouteEndpoint {
  const { expiresIn, keyPrefix, settings, presign, issueToken, receipts, completion, multipartTickets, multipart, renewTickets } =
    createRouteServices(config, route);

  /**
   * `_upload.complete`: the browser reports a stored object with the `receipt` of its preparation answer;
   * the object is checked (HEAD; deleted when too large or of a type not allowed) and `onUploadComplete` runs.
   */
  const complete = async ({ key, receipt }: { key: string; receipt: string }, request: Request): Promise<Response> => {
    await receipts().verify(key, receipt);
    const answer: UploadCompleteResponse = await completion().complete(key, request);
    return Response.json(answer);
  };

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
      const completed = (await multipart().continue(operation)) as CompleteMultipartResponse;
      const { serverData } = await completion().complete(completed.key, request);
      const answer: CompleteMultipartResponse = serverData === undefined ? completed : { ...completed, serverData };
      return Response.json(answer);
    }
    if (operation.action !== 'create') return Response.json(await multipart().continue(operation));
    const object = await decideObject(body, request);
    const created = await multipart().create({
      ...object,
      contentType: body.filetype,
      filesize: body.filesize,
      partSize: operation.partSize,
    });
    const answer: MultipartUploadResponse = { ...baseAnswer(settings(), object.key), ...created };
    return Response.json(answer);
  };

  const handle = async (body: UploadRequestBody, request: Request): Promise<Response> => {
    assertStrategyAllowed(body._upload.strategy, config.strategies, route);
    const resolved = settings();
    if (body._upload.complete) return await complete(body._upload.complete, request);
    if (body._upload.multipart) return await runMultipart(body._upload.multipart, body, request);
    if (body._upload.renew) return await renew(body._upload.renew, body, request);
    const { key, contentDisposition, metadata } = await decideObject(body, request);

    if (body._upload.strategy === 'presigned') {
      const nextS3 = Object.hasOwn(body, '_nextS3');
      if (nextS3) assertNextS3CanSend(resolved);
      const tagging = presignedTagging(config.tags, body, config.allowObjectTagging);
      // next-s3-upload's client sends no header it is not told of: no tagging header for it, and no tags.
      if (nextS3 && tagging !== '') throw new UploadError('INVALID_REQUEST', "next-s3-upload's client cannot send the signed tags: use Upbeam's client.");
      const { url, headers } = await presign()({
        key,
        contentType: body.filetype,
        expiresIn,
        contentLength: config.maxFileSize === undefined ? undefined : body.filesize,
        contentDisposition,
        metadata,
        tagging: nextS3 ? undefined : tagging,
      });
      const receipt = config.onUploadComplete ? { receipt: await receipts().issue(key) } : {};
      const answer: PresignedUploadResponse = { ...baseAnswer(resolved, key), url, headers, ...receipt };
      return Response.json(answer);
    }
    return await tokenAnswer({ key, contentDisposition, metadata });
  };
  return { handle, admitLargeBody };
}

function assertStrategyAllowed(strategy: UploadStrategy, allowed: readonly UploadStrategy[] | undefined, route: string | undefined): void {
  if (allowed === undefined || allowed.includes(strategy)) return;
  throw new UploadError('INVALID_REQUEST', `The upload route "${route}" does not allow the ${strategy} strategy.`);
}
