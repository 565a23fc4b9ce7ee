import type { PresignedUploadResponse, UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from '../errors';
import { assertNextS3CanSend } from '../next-s3-marker';
import { objectTagging } from '../object-tags';
import { RECEIPT_TTL_SECONDS } from '../upload-receipt';
import { baseAnswer, recordUpload, type DecidedObject, type RouteContext } from './route-context';

/**
 * A presigned PUT of `object`: the URL binds the type, the declared size (with `maxFileSize`), the ACL,
 * the disposition and the tags (`x-amz-tagging`, empty without); with `onUploadComplete`, a receipt and the
 * upload's record.
 */
export async function preparePresigned(route: RouteContext, object: DecidedObject, body: UploadRequestBody): Promise<PresignedUploadResponse> {
  const { config, services } = route;
  const resolved = services.settings();
  const nextS3 = Object.hasOwn(body, '_nextS3');
  if (nextS3) assertNextS3CanSend(resolved);
  const tagging = objectTagging(config.tags, body, config.allowObjectTagging);
  // next-s3-upload's client sends no header it is not told of: no tagging header for it, and no tags.
  if (nextS3 && tagging !== '') throw new UploadError('INVALID_REQUEST', "next-s3-upload's client cannot send the signed tags: use Upbeam's client.");
  const { url, headers } = await services.presign()({
    key: object.key,
    contentType: body.filetype,
    expiresIn: services.expiresIn,
    contentLength: config.maxFileSize === undefined ? undefined : body.filesize,
    contentDisposition: object.contentDisposition,
    metadata: object.metadata,
    tagging: nextS3 ? undefined : tagging,
  });
  // Once the URL is signed (locally; a refused one writes no record), the upload's record: it ends with the receipt.
  await recordUpload(route, object, Math.floor(Date.now() / 1000) + RECEIPT_TTL_SECONDS);
  const receipt = config.onUploadComplete ? { receipt: await services.receipts().issue(object.key, undefined, object.context) } : {};
  return { ...baseAnswer(resolved, object.key), url, headers, ...receipt };
}
