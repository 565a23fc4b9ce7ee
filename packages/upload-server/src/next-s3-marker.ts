import type { UploadStrategy } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { ResolvedStorageSettings } from './settings';

/**
 * next-s3-upload's strategies (its `_nextS3.strategy`) and ours: `usePresignedUpload` asks for
 * `presigned` and PUTs the file to `url`; `useS3Upload` asks for `aws-sdk` and uploads with the temporary
 * credentials in `token.Credentials` (next-s3-upload 0.3, `src/hooks/use-uploader.ts`).
 */
const NEXT_S3_STRATEGIES: Readonly<Record<string, UploadStrategy>> = {
  presigned: 'presigned',
  'aws-sdk': 'temporary-token',
};

/**
 * The strategy of a request from next-s3-upload's unchanged client, which marks its body
 * `{ filename, filetype, _nextS3: { strategy: 'presigned' | 'aws-sdk' } }` instead of `_upload`. Such a
 * request can only prepare an upload: next-s3-upload has no multipart, renew or complete operations.
 *
 * @throws {@link UploadError} `INVALID_REQUEST` (400) when `_nextS3.strategy` is neither `presigned` nor `aws-sdk`.
 */
export function readNextS3Strategy(marker: unknown): UploadStrategy {
  const strategy =
    marker !== null && typeof marker === 'object' && Object.hasOwn(marker, 'strategy')
      ? (marker as { strategy: unknown }).strategy
      : undefined;
  if (typeof strategy !== 'string' || !Object.hasOwn(NEXT_S3_STRATEGIES, strategy)) {
    throw new UploadError('INVALID_REQUEST', '"_nextS3.strategy" must be one of: "presigned", "aws-sdk".');
  }
  return NEXT_S3_STRATEGIES[strategy]!;
}

/**
 * next-s3-upload's presigned PUT sends Content-Type and Cache-Control and no other header, so it cannot send
 * the `x-amz-acl` a presigned URL of this handler signs (`objectAcl`). Its marker chooses the answer's shape,
 * never a weaker policy: a URL without the ACL would let the browser add `x-amz-acl: public-read`, which
 * radosgw (and any storage that applies unsigned headers) stores as a public object.
 *
 * @throws {@link UploadError} `INVALID_REQUEST` (400) when `objectAcl` is signed, saying what to change.
 */
export function assertNextS3CanSend(settings: Pick<ResolvedStorageSettings, 'objectAcl'>): void {
  if (settings.objectAcl === undefined) return;
  throw new UploadError(
    'INVALID_REQUEST',
    `next-s3-upload's client cannot send the x-amz-acl header this endpoint signs (objectAcl "${settings.objectAcl}"): ` +
      "upload with Upbeam's client, or set objectAcl: 'none' where storage itself refuses ACL headers " +
      '(AWS S3 with Object Ownership "bucket owner enforced").',
  );
}
