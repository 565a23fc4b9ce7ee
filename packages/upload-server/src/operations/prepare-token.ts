import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { RECEIPT_TTL_SECONDS, UPLOAD_LIFETIME_SECONDS } from '../upload-receipt';
import { baseAnswer, recordUpload, type DecidedObject, type RouteContext } from './route-context';

/**
 * Temporary credentials for `object.key`, a renew `ticket` for the same key, the server's time (the
 * browser corrects a skewed clock by it) and, when storage cannot enforce the route's rules on credentials
 * (`maxFileSize`, `allowedContentTypes`) or there is a completion hook, a receipt (and, with the hook, the
 * upload's record: a renewal writes one more). `firstIssuedAt` is when
 * the upload was first prepared (seconds since the epoch; now for a new upload, the ticket's on a renewal):
 * credentials, ticket and receipt all end by {@link UPLOAD_LIFETIME_SECONDS} after it.
 */
export async function prepareToken(
  route: RouteContext,
  object: DecidedObject,
  firstIssuedAt = Math.floor(Date.now() / 1000),
): Promise<TemporaryTokenUploadResponse> {
  const { config, services } = route;
  const resolved = services.settings();
  const writableUntil = firstIssuedAt + UPLOAD_LIFETIME_SECONDS;
  // The upload's record (with `onUploadComplete`) is written while STS answers; it ends with the receipt.
  const [Credentials] = await Promise.all([
    services.issueToken()(object.key, writableUntil),
    recordUpload(route, object, writableUntil + RECEIPT_TTL_SECONDS),
  ]);
  const { ticket } = await services.renewTickets().issue({ bucket: resolved.bucket, key: object.key, firstIssuedAt }, writableUntil);
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
