/**
 * The temporary-token strategy in the browser. Loaded with `import()` on its first use, like the AWS SDK
 * chunk it loads in turn, so that an app that only uses presigned URLs downloads neither.
 */
import { UPLOAD_STRATEGIES, type TemporaryTokenUploadResponse, type UploadResult } from '@upbeam/upload-protocol';
import { UploadClientError } from './errors';
import { resolveMultipartSettings } from './part-math';
import { objectUrl } from './object-url';
import { postToEndpoint } from './prepare';
import type { UploadContext } from './types';

/** Fields of the temporary-token answer that the engine reads. */
const TOKEN_FIELDS = [
  'key',
  'bucket',
  'region',
  'token.Credentials.AccessKeyId',
  'token.Credentials.SecretAccessKey',
  'token.Credentials.SessionToken',
] as const;

/**
 * Checks the strategy (`uploadFile` sends every strategy but `presigned` here) and the multipart options,
 * before any request to the endpoint or storage; asks the endpoint for temporary credentials while the
 * AWS SDK chunk loads; sends the file (one PutObject, or a multipart upload); then, when the server limits
 * the size (its answer holds a `receipt`), tells it the object is stored so that it checks the size
 * (`_upload.complete`; the server deletes an object that is too large).
 *
 * @returns `{ url, bucket, key }`, `url` built by {@link objectUrl} (SPEC 7.4).
 * @throws as `uploadFile`.
 */
export async function uploadWithTemporaryToken(upload: UploadContext): Promise<UploadResult> {
  const { file, filetype, options } = upload;
  if (options.strategy !== 'temporary-token') {
    const got = String(options.strategy);
    throw new UploadClientError('INVALID_OPTIONS', `strategy must be one of: ${UPLOAD_STRATEGIES.join(', ')}. Got ${got}.`);
  }
  const settings = resolveMultipartSettings(file.size, options);
  // The AWS SDK chunk loads while the server prepares the upload.
  const engine = import('./multipart-upload');
  engine.catch(() => {});
  const marker = { strategy: 'temporary-token' } as const;
  const prepared = await postToEndpoint<TemporaryTokenUploadResponse>(upload, { marker, fields: TOKEN_FIELDS });
  const { uploadMultipart } = await engine;
  const { report: onProgress } = upload;
  await uploadMultipart({ file, filetype, prepared, settings, retry: options, onProgress, signal: options.signal });
  // A server with a size limit checks the stored object now (storage cannot bind a size to credentials).
  const { key, bucket, receipt } = prepared;
  if (receipt) await postToEndpoint(upload, { marker: { ...marker, complete: { key, receipt } } });
  return { url: objectUrl(prepared), bucket, key };
}
