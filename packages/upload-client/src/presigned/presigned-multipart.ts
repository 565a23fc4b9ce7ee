/**
 * The presigned strategy for files at or above `multipartThreshold`: loaded with `import()` only then, so
 * that the single PUT path stays small.
 */
import type { MultipartUploadResponse, UploadResult } from '@upbeam/upload-protocol';
import { reportCompletion } from '../complete-upload';
import { MultipartUpload } from '../multipart-upload';
import { objectUrl } from '../object-url';
import { resolveMultipartSettings } from '../part-math';
import { AlreadyStored, presignedStarter, type CompletionAnswer } from './presigned-backend';
import type { UploadContext } from '../types';

/** Also the starter of a kept upload's abort (`abort-kept.ts`), which loads this chunk rather than a new one. */
export { presignedStarter };

/**
 * Sends the file as a presigned multipart upload (see `MultipartUpload`); `ahead`: the answer of its `create`,
 * sent by `uploadFile` while this chunk loaded (`createAhead`), when it was.
 * @returns `{ url, bucket, key, checksum?, serverData? }`: `url` is a part URL without its query string, the object's
 *   address as the single PUT's URL gives it; `serverData` what the server's completion hook answered in
 *   the `complete` request.
 * @throws as `uploadFile`.
 */
export async function uploadPresignedMultipart(upload: UploadContext, ahead?: Promise<MultipartUploadResponse>): Promise<UploadResult> {
  const settings = resolveMultipartSettings(upload.file.size, upload.options);
  const completed: CompletionAnswer = {};
  try {
    const { record, checksum } = await new MultipartUpload(upload, settings, presignedStarter(upload, completed, ahead)).start();
    const { url = '', bucket, key } = record;
    return { url, bucket, key, ...(checksum && { checksum }), ...completed };
  } catch (error) {
    if (!(error instanceof AlreadyStored)) throw error;
    // A content-addressed route whose storage holds these bytes: nothing sent, reported complete.
    const { answer, checksum } = error;
    // Its receipt as a presigned answer's (`alreadyStored` answers carry one always).
    const { bucket, key, region, endpoint, receipt } = answer as typeof answer & { receipt?: string };
    const url = objectUrl({ bucket, key, region, endpoint, forcePathStyle: !!endpoint });
    return reportCompletion(upload, 'presigned', receipt, { url, bucket, key, checksum, deduplicated: true });
  }
}
