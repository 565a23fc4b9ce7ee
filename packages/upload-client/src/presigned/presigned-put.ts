/**
 * The presigned strategy's single PUT: the preparation endpoint signs a PutObject URL, the browser sends the
 * whole file to it through the send loop (`single-put`). An upload with a checksum (known before asking, or
 * named by the answer) goes on in `checksum-presigned-put`, loaded with `import()` with the checksum chunk, so
 * that a page whose uploads have none never downloads that flow.
 */
import {
  OBJECT_CACHE_CONTROL,
  type ChecksumAlgorithm,
  type PresignedPostUploadResponse,
  type PresignedUploadResponse,
  type UploadResult,
} from '@upbeam/upload-protocol';
import { reportCompletion } from '../complete-upload';
import { isUploadClientError, UploadClientError } from '../errors';
import { postToEndpoint } from '../prepare';
import { loadPresignedPost } from '../presigned-post-chunk';
import { presignedUrlExpiry } from '../put-object';
import { attemptWatch } from '../recovery';
import { knownChecksum, learnChecksum, routeChecksum } from '../route-checksum';
import { putWholeFile } from '../single-put';
import type { UploadContext } from '../types';

/** Fields of the presigned answer that the engine reads (`url` too, unless `alreadyStored`). */
const PRESIGNED_FIELDS = ['key', 'bucket'];

/**
 * Goes on with a checksum: the checksum flow and the checksum chunk it hashes with are loaded together, so an
 * upload whose algorithm is known waits for no more chunks in a row than the hashing alone did.
 */
async function withChecksum(upload: UploadContext, algorithm: ChecksumAlgorithm | undefined, answered?: PresignedUploadResponse): Promise<UploadResult> {
  import('../checksum').catch(() => undefined);
  return (await import('./checksum-presigned-put')).uploadPresignedWithChecksum(upload, algorithm, answered);
}

/**
 * The presigned strategy: prepare, then PUT the file to the signed URL (the send loop of `single-put`). A
 * PUT that fails on the network or with a retryable answer is sent again after the backoff (the browser
 * starts the body from byte 0); a PUT refused because the URL expired is prepared again first, at once.
 * - Checksum (`uploadPresignedWithChecksum`): the algorithm known before asking (the option, else the route's as
 *   this page learned it) is hashed first and asked with its value; a route that wants one answers
 *   `CHECKSUM_REQUIRED` to a request without it: hashed, asked again, once. An answer that names one, or says
 *   `alreadyStored` (a content-addressed route: nothing sent, `deduplicated: true`), goes on there too.
 * - 412 (`If-None-Match: *`): stored when an earlier attempt got no answer; else final, "An object already
 *   exists under this key (storage refuses to overwrite it)."
 * - An answer with `fields` is a presigned POST (the server answers one where a presigned PUT is not safe on its
 *   storage): the file is POSTed in that form (`presigned-post`, loaded with `import()`).
 * Then, when the answer held a `receipt`, reports completion to the server (its hook's `serverData`).
 * @returns the stored object: the signed URL without its query string (the signature), bucket, key,
 *   `checksum` when one was sent, `deduplicated`, and `serverData` when the server's hook returned some.
 */
export async function uploadPresigned(upload: UploadContext): Promise<UploadResult> {
  const known = knownChecksum(upload);
  if (known) return withChecksum(upload, known);
  let prepared: PresignedUploadResponse;
  let expiresAt = 0;

  const prepare = async (): Promise<PresignedUploadResponse> => {
    const answer = await postToEndpoint<PresignedUploadResponse>(upload, { marker: { strategy: 'presigned' }, fields: PRESIGNED_FIELDS });
    if (!answer.alreadyStored && !answer.url) throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint answered without url.');
    learnChecksum(upload, answer.checksum);
    expiresAt = presignedUrlExpiry(answer.url);
    return (prepared = answer);
  };

  try {
    await prepare();
    // Answered with a POST form (storage where a presigned PUT is not safe): sent as a POST, in its chunk.
    if ('fields' in prepared!) return await (await loadPresignedPost()).uploadPresignedPost(upload, { answer: prepared as PresignedPostUploadResponse, algorithm: undefined });
    // A checksum the server did not sign (a server that predates signed checksums: Content-MD5), or already stored.
    if (prepared!.checksum || prepared!.alreadyStored) return await withChecksum(upload, undefined, prepared!);
  } catch (error) {
    // Asked without a value, the route wants one (its algorithm now known): hashed and asked again, once.
    const algorithm = isUploadClientError(error) && error.answerCode === 'CHECKSUM_REQUIRED' && routeChecksum(upload);
    if (!algorithm) throw error;
    return withChecksum(upload, algorithm);
  }
  // A 412 to If-None-Match: * (signed by the server when storage honours it), by the one rule of a lost answer.
  const watch = attemptWatch(true);
  await putWholeFile(
    upload,
    async (fresh) => {
      if (fresh) await prepare();
      // Exactly the signed headers; servers before `headers` existed signed these two.
      const signed = prepared.headers ?? { 'Content-Type': upload.filetype, 'Cache-Control': OBJECT_CACHE_CONTROL };
      return { url: prepared.url, headers: signed, expiresAt };
    },
    undefined,
    watch.onRetry,
  ).catch(watch.settle);
  const { url, bucket, key, receipt } = prepared!;
  return reportCompletion(upload, 'presigned', receipt, { url: url.split('?')[0]!, bucket, key });
}
