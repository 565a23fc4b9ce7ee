/**
 * The presigned-post strategy (S3 POST Object with a signed policy), loaded with `import()` on its first use:
 * the server signs a policy that binds the key, the content type and the size range, the browser POSTs the file
 * in a form. Also where a `presigned` preparation answered with `fields` goes on (the server answers a POST where
 * a presigned PUT is not safe on its storage). One object, at most 5 GiB: no multipart.
 */
import {
  MAX_SINGLE_PUT_SIZE,
  POST_TOO_LARGE_MESSAGE,
  type ChecksumAlgorithm,
  type PresignedPostUploadResponse,
  type UploadResult,
} from '@upbeam/upload-protocol';
import { reportCompletion } from '../complete-upload';
import { UploadClientError } from '../errors';
import { objectUrl } from '../object-url';
import { knownChecksum, learnChecksum } from '../route-checksum';
import { sendLoop } from '../send-loop';
import { singlePutChecksum, type SinglePutChecksum } from '../single-put-checksum';
import type { UploadContext } from '../types';
import { postObject, type SignedPost } from './post-object';
import { policyExpiry } from './post-refusal';
import { postedObjectUrl, preparePost, type PostAnswer } from './prepare-post';

/** A `presigned` preparation the server answered with a POST form (`presigned-put` hands it over). */
export interface HandedPost {
  answer: PresignedPostUploadResponse;
  /** The checksum the preparation was asked with, if any (the form's fields carry its value). */
  algorithm: ChecksumAlgorithm | undefined;
}

/**
 * Uploads `upload.file` with a presigned POST: prepares (`_upload.strategy: 'presigned-post'`, or `presigned`
 * for a `handed` answer), POSTs the form (`postForm`: the fields, then the file) through the engine's one send
 * loop, then reports completion when the answer held a `receipt`, exactly as a presigned single PUT.
 * - Progress: the file's bytes only ({@link fileBytesSent}); the whole size once storage answered 201.
 * - A network error or a 5xx / 408 / 429 / `SlowDown` is sent again after the backoff; a 403 of an expired
 *   policy is prepared again, at once; a file outside the signed size range (400 `EntityTooLarge` /
 *   `EntityTooSmall`) and any other refusal are final (`postRefusal`).
 * - Checksum: as a presigned single PUT's: the algorithm known before asking is hashed first and its value sent
 *   (the server signs it into the form as its `x-amz-checksum-*` field); a route that wants one answers
 *   `CHECKSUM_REQUIRED`: hashed, asked again once. The result's `checksum` only when the answer names it (a POST
 *   has no MD5 field: the server leaves MD5 out). `alreadyStored` (a content-addressed route): nothing sent,
 *   `deduplicated: true`.
 * `multipartThreshold` is not read: one object always.
 * @returns the stored object: the bucket URL and the key as an object's address, bucket, key, `checksum` when one
 *   was sent, `deduplicated`, and `serverData` when the server's hook returned some.
 * @throws {@link UploadClientError} `INVALID_OPTIONS` {@link POST_TOO_LARGE_MESSAGE} for a file over 5 GiB,
 *   before any request; else as `uploadFile`.
 */
export async function uploadPresignedPost(upload: UploadContext, handed?: HandedPost): Promise<UploadResult> {
  const { file, options } = upload;
  if (file.size > MAX_SINGLE_PUT_SIZE) throw new UploadClientError('INVALID_OPTIONS', POST_TOO_LARGE_MESSAGE);
  const strategy = handed ? 'presigned' : 'presigned-post';
  let algorithm = handed ? handed.algorithm : knownChecksum(upload);
  let hashed: SinglePutChecksum | undefined;
  let prepared: PostAnswer;
  let signed: SignedPost | undefined;

  const take = (answer: PostAnswer): PostAnswer => {
    signed = answer.alreadyStored ? undefined : { url: answer.url, fields: answer.fields, expiresAt: policyExpiry(answer) };
    return (prepared = answer);
  };
  const prepare = async (): Promise<PostAnswer> => {
    let answer: PostAnswer;
    ({ answer, algorithm, hashed } = await preparePost(upload, strategy, algorithm));
    return take(answer);
  };

  if (handed) {
    hashed = algorithm ? await singlePutChecksum(file, algorithm) : undefined;
    learnChecksum(upload, handed.answer.checksum);
    take(handed.answer);
  } else await prepare();
  if (signed) {
    await sendLoop(
      {
        sign: async (fresh) => {
          if (fresh) await prepare();
          return signed!;
        },
        send: (post) => postObject(post, file, options.signal, upload.report),
        // Storage keeps nothing of an unfinished POST.
        lost: () => upload.report(0),
      },
      options,
    );
  }
  const { bucket, key, receipt, region, endpoint } = prepared!;
  // Only a checksum the form carries (the answer names it) is one storage verified: a POST has no MD5 field.
  const checksum = prepared!.checksum && prepared!.checksum === algorithm ? hashed?.checksum : undefined;
  // The bucket's POST URL (path-style or virtual-hosted) and the key: the object's address, as a PUT URL gives it.
  // Nothing sent (already stored): the address as a URL would give it.
  const url = signed ? postedObjectUrl(signed.url, key) : objectUrl({ bucket, key, region, endpoint, forcePathStyle: !!endpoint });
  const result: UploadResult = {
    url,
    bucket,
    key,
    ...(checksum && { checksum }),
    ...(prepared!.alreadyStored && { deduplicated: true }),
  };
  return reportCompletion(upload, strategy, receipt, result);
}
