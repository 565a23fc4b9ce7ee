import type { PresignedPostUploadResponse, PresignedUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from '../errors';
import { assertNextS3CanSend } from '../next-s3-marker';
import { objectTagging } from '../object-tags';
import { reserving } from '../upload-limits';
import { RECEIPT_TTL_SECONDS } from '../upload-receipt';
import { alreadyStored, type AlreadyStoredAnswer } from './already-stored';
import { postInsteadOfPut, preparePost } from './prepare-post';
import { baseAnswer, recordUpload, type DecidedObject, type RouteContext } from './route-context';

/**
 * A presigned PUT of `object`: the URL binds the type, the declared size (with `maxFileSize` or a `bytes`
 * limit), the ACL, the disposition and the tags (`x-amz-tagging`, empty without); with `onUploadComplete`, a
 * receipt and the upload's record; with `limits`, the upload reserved before the URL is signed (until its
 * receipt ends) and a receipt, so that the page reports it and its completion settles it. The object's
 * checksum (`object.checksum`, its value required: `uploadChecksum`) is signed as its header and bound into the
 * receipt; with `conditionalWrites`, `If-None-Match: *` is signed too. A content-addressed key that storage
 * already holds with that checksum answers `alreadyStored` instead (`already-stored.ts`). Where a presigned PUT is
 * not safe (storage applies unsigned headers: the unsigned-header gate refuses it) and storage takes POST Object,
 * the answer is a presigned POST (`prepare-post.ts`: an answer with `fields`), for Upbeam's client.
 */
export async function preparePresigned(
  route: RouteContext,
  object: DecidedObject,
  body: UploadRequestBody,
): Promise<PresignedUploadResponse | PresignedPostUploadResponse | AlreadyStoredAnswer> {
  const { config, services } = route;
  const resolved = services.settings();
  const stored = await alreadyStored(route, object);
  if (stored) return stored;
  const checksum = object.checksum?.value === undefined ? undefined : { algorithm: object.checksum.algorithm, value: object.checksum.value };
  const nextS3 = Object.hasOwn(body, '_nextS3');
  if (nextS3) assertNextS3CanSend(resolved);
  // next-s3-upload's client sends PUTs only: it keeps the gate's refusal.
  if (!nextS3 && (await postInsteadOfPut(route))) return preparePost(route, object, body);
  // next-s3-upload's client sends no header it is not told of: no If-None-Match for it.
  const ifNoneMatch = resolved.conditionalWrites && !nextS3;
  const tagging = objectTagging(config.tags, body, config.allowObjectTagging);
  // next-s3-upload's client sends no header it is not told of: no tagging header for it, and no tags.
  if (nextS3 && tagging !== '') throw new UploadError('INVALID_REQUEST', "next-s3-upload's client cannot send the signed tags: use Upbeam's client.");
  const { limits } = services;
  const receiptEnd = Math.floor(Date.now() / 1000) + RECEIPT_TTL_SECONDS;
  const upload = { key: object.key, filesize: body.filesize, expiresAt: receiptEnd * 1000, subject: object.subject };
  return reserving(limits, upload, async () => {
    const { url, headers } = await services.presign()({
      key: object.key,
      contentType: body.filetype,
      expiresIn: services.expiresIn,
      // Storage then refuses a PUT of another size: what `maxFileSize` and a `bytes` limit were checked against.
      contentLength: config.maxFileSize === undefined && !limits?.countsBytes ? undefined : body.filesize,
      contentDisposition: object.contentDisposition,
      metadata: object.metadata,
      tagging: nextS3 ? undefined : tagging,
      checksum,
      ifNoneMatch,
    });
    // Once the URL is signed (locally; a refused one writes no record), the upload's record: it ends with the receipt.
    await recordUpload(route, object, receiptEnd);
    const receipt = config.onUploadComplete || limits ? { receipt: await services.receipts().issue(object.key, undefined, object.context, undefined, { checksum }) } : {};
    return { ...baseAnswer(resolved, object.key, checksum?.algorithm, ifNoneMatch), url, headers, ...receipt };
  });
}
