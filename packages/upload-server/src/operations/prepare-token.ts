import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { RECEIPT_TTL_SECONDS, UPLOAD_LIFETIME_SECONDS } from '../upload-receipt';
import { baseAnswer, recordUpload, type DecidedObject, type RouteContext } from './route-context';

/**
 * Temporary credentials for `object.key`, a renew `ticket` for the same key, the server's time (the
 * browser corrects a skewed clock by it) and, when storage cannot enforce the route's rules on credentials
 * (`maxFileSize`, `allowedContentTypes`) or there is a completion hook, a receipt. `firstIssuedAt` is when
 * the upload was first prepared (seconds since the epoch; the ticket's on a renewal, undefined for a new
 * upload): credentials, ticket and receipt all end by {@link UPLOAD_LIFETIME_SECONDS} after it. A new upload
 * with a completion hook writes its record, which covers that whole time: a renewal writes none (storage is
 * not asked), and the server's own finds get the first preparation's context.
 */
export async function prepareToken(
  route: RouteContext,
  object: DecidedObject,
  firstIssuedAt?: number,
): Promise<TemporaryTokenUploadResponse> {
  const { config, services } = route;
  const resolved = services.settings();
  const renewal = firstIssuedAt !== undefined;
  const issuedAt = firstIssuedAt ?? Math.floor(Date.now() / 1000);
  const writableUntil = issuedAt + UPLOAD_LIFETIME_SECONDS;
  // A new upload's record (with `onUploadComplete`) is written while STS answers; it ends with the last receipt.
  const [Credentials] = await Promise.all([
    services.issueToken()(object.key, writableUntil),
    renewal ? undefined : recordUpload(route, object, writableUntil + RECEIPT_TTL_SECONDS),
  ]);
  const { ticket } = await services.renewTickets().issue({ bucket: resolved.bucket, key: object.key, firstIssuedAt: issuedAt }, writableUntil);
  // Storage cannot bind a size or type to credentials: they are checked at completion, as the hook runs there.
  const needsReceipt = config.maxFileSize !== undefined || config.allowedContentTypes !== undefined || config.onUploadComplete !== undefined;
  return {
    token: { Credentials },
    ...baseAnswer(resolved, object.key),
    ...(resolved.forcePathStyle ? { forcePathStyle: true } : {}),
    ...(object.contentDisposition === undefined ? {} : { contentDisposition: object.contentDisposition }),
    ...(object.metadata === undefined ? {} : { metadata: object.metadata }),
    ...(needsReceipt ? { receipt: await services.receipts().issue(object.key, writableUntil + RECEIPT_TTL_SECONDS, object.context) } : {}),
    ticket,
    serverTime: new Date().toISOString(),
  };
}
