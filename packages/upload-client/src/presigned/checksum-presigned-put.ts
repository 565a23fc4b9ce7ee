/**
 * The presigned single PUT with a checksum, in the checksum chunk (loaded with `import()` only by an upload with
 * one, from `presigned-put`): the file is hashed first, and the server signs its value into the URL (the
 * answer's `headers`): the URL accepts those bytes and no others. Also the answers only a checksum brings:
 * `alreadyStored` (a content-addressed route) and a 412 on a content-addressed key.
 */
import {
  OBJECT_CACHE_CONTROL,
  type ChecksumAlgorithm,
  type PresignedPostUploadResponse,
  type PresignedUploadResponse,
  type UploadResult,
} from '@upbeam/upload-protocol';
import { CHECKSUM_REFUSALS } from '../checksum-refusal';
import { reportCompletion } from '../complete-upload';
import { isUploadClientError, UploadClientError } from '../errors';
import { objectUrl } from '../object-url';
import { postToEndpoint } from '../prepare';
import { addMissingHeaders, presignedUrlExpiry } from '../put-object';
import { attemptWatch, isOverwriteRefusal } from '../recovery';
import { learnChecksum, routeChecksum } from '../route-checksum';
import { putWholeFile } from '../single-put';
import { singlePutChecksum, type SinglePutChecksum } from '../single-put-checksum';
import type { UploadContext } from '../types';

/** Fields of the presigned answer that the engine reads (`url` too, unless `alreadyStored`), as `presigned-put`. */
const PRESIGNED_FIELDS = ['key', 'bucket'];

/** Lowercase hex of a base64 value (a content-addressed key names the SHA-256 in hex). */
const hexOf = (base64: string) => Array.from(atob(base64), (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

/**
 * The presigned strategy with a checksum (`uploadPresigned` hands an upload over when it knows or meets one):
 * prepare, then PUT the file to the signed URL (the send loop of `single-put`), retried and prepared again as
 * `uploadPresigned` does.
 * - Checksum: the algorithm known before asking (the option, else the route's as this page learned it) is
 *   hashed first (once per file: kept for retries) and asked with its value; a route that wants one answers
 *   `CHECKSUM_REQUIRED` to a request without it: hashed, asked again, once. A body storage refuses for its
 *   checksum is hashed again and sent with a fresh URL, once.
 * - `alreadyStored` (a content-addressed route holding these bytes): nothing is sent; the result says
 *   `deduplicated: true`.
 * - 412 (`If-None-Match: *`): stored when an earlier attempt got no answer, or when the key is named from the
 *   file's SHA-256 (another upload stored the same bytes: `deduplicated`); else final, "An object already
 *   exists under this key (storage refuses to overwrite it)."
 * Then, when the answer held a `receipt`, reports completion to the server (its hook's `serverData`).
 * @returns the stored object: the signed URL without its query string (the signature), bucket, key,
 *   `checksum` when one was sent, `deduplicated`, and `serverData` when the server's hook returned some.
 */
export async function uploadPresignedWithChecksum(
  upload: UploadContext,
  /** The algorithm known before asking (the option, the route's as learned, or a `CHECKSUM_REQUIRED` refusal's). */
  known: ChecksumAlgorithm | undefined,
  /** An answer to a request asked without a value, which names a checksum or says `alreadyStored`: taken as is. */
  answered?: PresignedUploadResponse,
): Promise<UploadResult> {
  const { file } = upload;
  let algorithm = known;
  let hashed: SinglePutChecksum | undefined;
  /** The Blob hashed: the file, or a fresh slice of it once storage refused its checksum (not the kept digest). */
  let hashedBlob: Blob = file;
  let prepared: PresignedUploadResponse;
  let expiresAt = 0;

  const ask = async (): Promise<PresignedUploadResponse> => {
    hashed = await singlePutChecksum(hashedBlob, algorithm);
    const checksum = algorithm && { algorithm, value: hashed.value! };
    const answer = await postToEndpoint<PresignedUploadResponse>(upload, {
      marker: { strategy: 'presigned', ...(checksum && { checksum }) },
      fields: PRESIGNED_FIELDS,
    });
    if (!answer.alreadyStored && !answer.url) throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint answered without url.');
    return take(answer);
  };
  /** Takes an answer: the route's algorithm learned, the file hashed by the one it names. */
  const take = async (answer: PresignedUploadResponse): Promise<PresignedUploadResponse> => {
    learnChecksum(upload, answer.checksum);
    // Without the option, the answer decides: none (the route changed, or a server that predates checksums), or
    // one it did not sign (a server that predates signed checksums: Content-MD5), hashed now and added.
    if (answer.checksum !== algorithm && upload.options.checksum === undefined) hashed = await singlePutChecksum(hashedBlob, (algorithm = answer.checksum));
    expiresAt = answer.url ? presignedUrlExpiry(answer.url) : 0;
    return (prepared = answer);
  };
  const prepare = async (): Promise<PresignedUploadResponse> => {
    try {
      return await ask();
    } catch (error) {
      // Asked without a value, the route wants one (its algorithm now known): hash and ask again, once.
      if (algorithm || !isUploadClientError(error) || error.answerCode !== 'CHECKSUM_REQUIRED' || !(algorithm = routeChecksum(upload))) throw error;
      return ask();
    }
  };

  prepared = answered ? await take(answered) : await prepare();
  // Answered with a POST form (storage where a presigned PUT is not safe): its fields carry the checksum's value.
  if ('fields' in prepared) {
    const answer = prepared as unknown as PresignedPostUploadResponse;
    return (await import('../presigned-post/presigned-post')).uploadPresignedPost(upload, { answer, algorithm });
  }
  const contentAddressed = () => algorithm === 'sha256' && prepared.key.includes(`sha256/${hexOf(hashed!.value!)}`);
  let deduplicated = prepared.alreadyStored;
  if (!deduplicated) {
    const watch = attemptWatch(true);
    try {
      await putWholeFile(
        upload,
        async (fresh, rehash) => {
          if (rehash) hashedBlob = file.slice();
          if (fresh) await prepare();
          // Exactly the signed headers; servers before `headers` existed signed these two.
          const signed = prepared.headers ?? { 'Content-Type': upload.filetype, 'Cache-Control': OBJECT_CACHE_CONTROL };
          return { url: prepared.url, headers: addMissingHeaders(signed, hashed?.headers), expiresAt };
        },
        undefined,
        watch.onRetry,
        CHECKSUM_REFUSALS,
      );
    } catch (error) {
      // If-None-Match: * refused the write of a key named from the file's SHA-256: another upload stored the
      // same bytes first. Else the one rule: stored by an attempt that got no answer, or final.
      if (isOverwriteRefusal(error) && contentAddressed()) deduplicated = true;
      else watch.settle(error);
    }
  }
  const { url, bucket, key, receipt, region, endpoint } = prepared;
  const checksum = hashed?.checksum;
  const result: UploadResult = {
    // Nothing sent (already stored): the object's address as a URL would give it.
    url: url ? url.split('?')[0]! : objectUrl({ bucket, key, region, endpoint, forcePathStyle: !!endpoint }),
    bucket,
    key,
    ...(checksum && { checksum }),
    ...(deduplicated && { deduplicated }),
  };
  return reportCompletion(upload, 'presigned', receipt, result);
}
