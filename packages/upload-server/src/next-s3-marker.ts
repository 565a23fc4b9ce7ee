import type { UploadStrategy } from '@upbeam/upload-protocol';
import { UploadError } from './errors';

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
