import type { UploadCompleteResponse, UploadResult, UploadStrategy } from '@upbeam/upload-protocol';
import { postToEndpoint } from './prepare';
import type { UploadContext } from './types';

/**
 * Tells the server the object is stored (`_upload.complete` with the preparation answer's `receipt`), when
 * its answer held one: the server then checks the object (size, type) and runs its completion hook, whose
 * answer becomes the result's `serverData`. Without a receipt, the result as it is: no request.
 * @throws as `postToEndpoint` (e.g. `PREPARE_FAILED` 413 when the stored file was too large and deleted).
 */
export async function reportCompletion(
  upload: UploadContext,
  strategy: UploadStrategy,
  receipt: string | undefined,
  result: UploadResult,
): Promise<UploadResult> {
  if (!receipt) return result;
  const { key } = result;
  const { serverData } = await postToEndpoint<UploadCompleteResponse>(upload, { marker: { strategy, complete: { key, receipt } } });
  return serverData === undefined ? result : { ...result, serverData };
}
