import { MAX_SINGLE_PUT_SIZE, POST_TOO_LARGE_MESSAGE, type PresignedPostUploadResponse, type UploadRequestBody } from '@upbeam/upload-protocol';
import { UploadError } from '../errors';
import { objectTagging } from '../object-tags';
import { isUnsafePresignedPut } from '../unsigned-header-gate';
import { reserving } from '../upload-limits';
import { RECEIPT_TTL_SECONDS } from '../upload-receipt';
import { alreadyStored, type AlreadyStoredAnswer } from './already-stored';
import { baseAnswer, recordUpload, type DecidedObject, type RouteContext } from './route-context';

/**
 * Refuses a file a POST cannot store: over `MAX_SINGLE_PUT_SIZE` (5 GiB, S3's limit of one POST or PUT).
 * @throws {@link UploadError} `FILE_TOO_LARGE_FOR_POST` (400) naming the other strategies.
 */
export function assertPostSize(filesize: number | undefined): void {
  if (filesize !== undefined && filesize > MAX_SINGLE_PUT_SIZE) throw new UploadError('FILE_TOO_LARGE_FOR_POST', POST_TOO_LARGE_MESSAGE);
}

/**
 * The size range a POST's policy binds (`content-length-range`, bytes): with a `bytes` limit, exactly the declared
 * size (what was reserved, as a presigned PUT signs its Content-Length); else from 1 (0 for a file declared
 * empty, or of no declared size) to `maxFileSize`, at most 5 GiB.
 */
export function postSizeRange(filesize: number | undefined, maxFileSize: number | undefined, exact: boolean): { minSize: number; maxSize: number } {
  if (exact && filesize !== undefined) return { minSize: filesize, maxSize: filesize };
  return { minSize: filesize === undefined || filesize === 0 ? 0 : 1, maxSize: Math.min(maxFileSize ?? MAX_SINGLE_PUT_SIZE, MAX_SINGLE_PUT_SIZE) };
}

/**
 * Whether a `presigned` single upload is answered with a presigned POST instead of a PUT: where the
 * unsigned-header gate refuses presigned PUTs (storage applies an unsigned `x-amz-copy-source` or object-lock
 * header: radosgw without the copy-refusing bucket policy) and storage takes POST Object. A POST carries no such
 * header: storage refuses a form field outside its policy and ignores the request's own `x-amz-*` headers
 * (measured on radosgw 16.2: bench/notes/presigned-post.md).
 * @throws the gate's refusal where the provider has no POST Object; its other failures (storage unreachable).
 */
export async function postInsteadOfPut({ services }: RouteContext): Promise<boolean> {
  try {
    await services.unsignedHeaderGate();
    return false;
  } catch (error) {
    if (!isUnsafePresignedPut(error)) throw error;
    try {
      services.presignPost();
    } catch {
      throw error;
    }
    return true;
  }
}

/**
 * A presigned POST of `object` (the `presigned-post` strategy, and a `presigned` single upload on storage where a
 * presigned PUT is not safe: `prepare-presigned.ts`): the policy binds the key, type, size range, disposition,
 * metadata, tags (the route's, and the request's with `allowObjectTagging`), the ACL and expiry; with
 * `onUploadComplete` or `limits` (or a checksum value, which the completion checks), a receipt and, with the
 * hook, the upload's record, exactly as a presigned single PUT. A checksum value is bound as its
 * `x-amz-checksum-*` field (and into the receipt) but for MD5, which a POST cannot carry: not bound, and the
 * answer names no checksum. A content-addressed key storage already holds
 * answers `alreadyStored`.
 * @throws {@link UploadError} `FILE_TOO_LARGE_FOR_POST` (400) over 5 GiB; `NOT_SUPPORTED` (501) on storage
 *   without POST Object (the provider preset's `postObject`) or an access-point ARN bucket.
 */
export async function preparePost(route: RouteContext, object: DecidedObject, body: UploadRequestBody): Promise<PresignedPostUploadResponse | AlreadyStoredAnswer> {
  const { config, services } = route;
  assertPostSize(body.filesize);
  if (Object.hasOwn(body, '_nextS3')) throw new UploadError('INVALID_REQUEST', "next-s3-upload's client sends PUTs only: use Upbeam's client for a presigned POST.");
  const resolved = services.settings();
  const stored = await alreadyStored(route, object);
  if (stored) return stored;
  // A POST has no Content-MD5: MD5 binds nothing there (storage computes none to compare), so it is left out.
  const asked = object.checksum;
  const checksum = asked?.value === undefined || asked.algorithm === 'md5' ? undefined : { algorithm: asked.algorithm, value: asked.value };
  const tagging = objectTagging(config.tags, body, config.allowObjectTagging);
  const { limits } = services;
  const receiptEnd = Math.floor(Date.now() / 1000) + RECEIPT_TTL_SECONDS;
  const upload = { key: object.key, filesize: body.filesize, expiresAt: receiptEnd * 1000, subject: object.subject };
  return reserving(limits, upload, async () => {
    const { url, fields, expiresAt } = await services.presignPost()({
      key: object.key,
      contentType: body.filetype,
      ...postSizeRange(body.filesize, config.maxFileSize, limits?.countsBytes === true),
      contentDisposition: object.contentDisposition,
      metadata: object.metadata,
      tagging,
      checksum,
      expiresIn: services.postExpiresIn,
    });
    await recordUpload(route, object, receiptEnd);
    const needsReceipt = config.onUploadComplete !== undefined || limits !== undefined || checksum !== undefined;
    const receipt = needsReceipt ? { receipt: await services.receipts().issue(object.key, undefined, object.context, undefined, { checksum }) } : {};
    // A POST cannot carry If-None-Match: no `ifNoneMatch` in its answer.
    return { ...baseAnswer(resolved, object.key, checksum?.algorithm, false), url, fields, expiresAt, ...receipt };
  });
}
