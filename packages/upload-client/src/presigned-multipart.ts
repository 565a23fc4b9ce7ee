/**
 * The presigned strategy for files at or above `multipartThreshold`: loaded with `import()` only then, so
 * that the single PUT path stays small.
 */
import type { UploadResult } from '@upbeam/upload-protocol';
import { runMultipart } from './multipart-run';
import { resolveMultipartSettings } from './part-math';
import { presignedStarter } from './presigned-backend';
import type { UploadContext } from './types';

/**
 * Sends the file as a presigned multipart upload (see `runMultipart`).
 * @returns `{ url, bucket, key }`: `url` is a part URL without its query string, the object's address as
 *   the single PUT's URL gives it.
 * @throws as `uploadFile`.
 */
export async function uploadPresignedMultipart(upload: UploadContext): Promise<UploadResult> {
  const settings = resolveMultipartSettings(upload.file.size, upload.options);
  const { url = '', bucket, key } = await runMultipart(upload, settings, presignedStarter(upload));
  return { url, bucket, key };
}
