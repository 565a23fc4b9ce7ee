/**
 * The presigned strategy's single PUT: the preparation endpoint signs a PutObject URL, the browser sends the
 * whole file to it through the send loop (`single-put`).
 */
import { OBJECT_CACHE_CONTROL, type PresignedUploadResponse, type UploadResult } from '@upbeam/upload-protocol';
import { reportCompletion } from '../complete-upload';
import { postToEndpoint } from '../prepare';
import { presignedUrlExpiry } from '../put-object';
import { putWholeFile } from '../single-put';
import { singlePutChecksum, type SinglePutChecksum } from '../single-put-checksum';
import type { UploadContext } from '../types';

/** Fields of the presigned answer that the engine reads. */
const PRESIGNED_FIELDS = ['key', 'bucket', 'url'];

/**
 * The presigned strategy: prepare, then PUT the file to the signed URL (the send loop of `single-put`). A
 * PUT that fails on the network or with a retryable answer is sent again after the backoff (the browser
 * starts the body from byte 0); a PUT refused because the URL expired is prepared again first, at once.
 * The file is hashed once, after the first answer, when the option or the answer asks for a checksum.
 * Then, when the answer held a `receipt`, reports completion to the server (its hook's `serverData`).
 * @returns the stored object: the signed URL without its query string (the signature), bucket, key,
 *   `checksum` when one was sent, and `serverData` when the server's hook returned some.
 */
export async function uploadPresigned(upload: UploadContext): Promise<UploadResult> {
  const { file, options } = upload;
  let prepared: PresignedUploadResponse | undefined;
  let expiresAt = 0;
  let hashed: SinglePutChecksum | undefined;
  await putWholeFile(upload, async (fresh) => {
    if (!prepared || fresh) {
      prepared = await postToEndpoint<PresignedUploadResponse>(upload, { marker: { strategy: 'presigned' }, fields: PRESIGNED_FIELDS });
      expiresAt = presignedUrlExpiry(prepared.url);
    }
    // The option wins (`false` too); unset, the server's answer decides (old servers ask for none).
    hashed ??= await singlePutChecksum(file, options.checksum ?? prepared.checksum);
    // Exactly the signed headers; servers before `headers` existed signed these two.
    const signed = prepared.headers ?? { 'Content-Type': upload.filetype, 'Cache-Control': OBJECT_CACHE_CONTROL };
    // Content-MD5 is not an x-amz-* header: storage takes it unsigned beside a presigned URL, and verifies it.
    return { url: prepared.url, headers: { ...signed, ...hashed.headers }, expiresAt };
  });
  const { url, bucket, key, receipt } = prepared!;
  const checksum = hashed?.checksum;
  return reportCompletion(upload, 'presigned', receipt, { url: url.split('?')[0]!, bucket, key, ...(checksum && { checksum }) });
}
