import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { reserving } from '../upload-limits';
import { RECEIPT_TTL_SECONDS, UPLOAD_LIFETIME_SECONDS } from '../upload-receipt';
import { alreadyStored, type AlreadyStoredAnswer } from './already-stored';
import { baseAnswer, recordUpload, type DecidedObject, type RouteContext } from './route-context';

/**
 * Temporary credentials for `object.key`, a renew `ticket` for the same key, the server's time (the
 * browser corrects a skewed clock by it) and, when storage cannot enforce the route's rules on credentials
 * (`maxFileSize`, `allowedContentTypes`) or there is a completion hook, a receipt. `firstIssuedAt` is when
 * the upload was first prepared (seconds since the epoch; the ticket's on a renewal, undefined for a new
 * upload): credentials, ticket and receipt all end by {@link UPLOAD_LIFETIME_SECONDS} after it. A new upload
 * with a completion hook writes its record, which covers that whole time: a renewal writes none (storage is
 * not asked), and the server's own finds get the first preparation's context.
 *
 * With `limits`, a new upload is reserved before anything is issued (until its last receipt ends), and every
 * answer carries a receipt that binds the declared size: its completion settles the reservation, and deletes an
 * object stored larger than declared (413). A renewal reserves nothing.
 *
 * The answer names the checksum the browser sends (`checksum`, signed by the browser with the credentials) and,
 * with `conditionalWrites`, `ifNoneMatch: true`; a checksum value the request carried is bound into the
 * receipt (the completion checks the stored object has it). A content-addressed key storage already holds
 * answers `alreadyStored` (`already-stored.ts`).
 */
export async function prepareToken(
  route: RouteContext,
  object: DecidedObject,
  firstIssuedAt?: number,
): Promise<TemporaryTokenUploadResponse | AlreadyStoredAnswer> {
  const { config, services } = route;
  const { limits } = services;
  const resolved = services.settings();
  const renewal = firstIssuedAt !== undefined;
  const stored = renewal ? undefined : await alreadyStored(route, object);
  if (stored) return stored;
  const { checksum } = object;
  const facts = checksum?.value === undefined ? {} : { checksum: { algorithm: checksum.algorithm, value: checksum.value } };
  const issuedAt = firstIssuedAt ?? Math.floor(Date.now() / 1000);
  const writableUntil = issuedAt + UPLOAD_LIFETIME_SECONDS;
  const receiptEnd = writableUntil + RECEIPT_TTL_SECONDS;
  const upload = { key: object.key, filesize: object.filesize, expiresAt: receiptEnd * 1000, subject: object.subject };
  return reserving(renewal ? undefined : limits, upload, async () => {
    // A new upload's record (with `onUploadComplete`) is written while STS answers; it ends with the last receipt.
    const [Credentials] = await Promise.all([services.issueToken()(object.key, writableUntil), renewal ? undefined : recordUpload(route, object, receiptEnd)]);
    const { ticket } = await services.renewTickets().issue({ bucket: resolved.bucket, key: object.key, firstIssuedAt: issuedAt }, writableUntil);
    // Storage cannot bind a size or type to credentials: they are checked at completion, as the hook runs there
    // (and, with limits, the declared size the receipt binds, where the reservation is settled).
    const needsReceipt =
      config.maxFileSize !== undefined || config.allowedContentTypes !== undefined || config.onUploadComplete !== undefined || limits !== undefined || facts.checksum !== undefined;
    const declared = limits === undefined ? undefined : object.filesize;
    return {
      token: { Credentials },
      ...baseAnswer(resolved, object.key, checksum?.algorithm),
      ...(resolved.forcePathStyle ? { forcePathStyle: true } : {}),
      ...(object.contentDisposition === undefined ? {} : { contentDisposition: object.contentDisposition }),
      ...(object.metadata === undefined ? {} : { metadata: object.metadata }),
      ...(needsReceipt ? { receipt: await services.receipts().issue(object.key, receiptEnd, object.context, declared, facts) } : {}),
      ticket,
      serverTime: new Date().toISOString(),
    };
  });
}
