/**
 * The preparation of a presigned POST, shared by the in-page POST (`presigned-post.ts`) and the background upload
 * (`background/background-uploads.ts`): asked with the file's checksum when the route wants one (known before
 * asking, or named by its `CHECKSUM_REQUIRED` answer: hashed, asked again once), as a presigned single PUT asks.
 */
import type { ChecksumAlgorithm, PresignedPostUploadResponse, UploadMarker, UploadStrategy } from '@upbeam/upload-protocol';
import { isUploadClientError, UploadClientError } from '../errors';
import { keyPath } from '../object-url';
import { postToEndpoint } from '../prepare';
import { learnChecksum, routeChecksum } from '../route-checksum';
import { singlePutChecksum, type SinglePutChecksum } from '../single-put-checksum';
import type { UploadContext } from '../types';

/** Fields of the POST answer that the engine reads (`url` too, and `fields`, unless `alreadyStored`). */
const POST_FIELDS = ['key', 'bucket'];

/** A POST answer, or the answer of a content-addressed route that already holds the bytes (nothing to send). */
export type PostAnswer =
  | PresignedPostUploadResponse
  | (Omit<PresignedPostUploadResponse, 'url' | 'fields' | 'expiresAt'> & { alreadyStored: true; url?: undefined; fields?: undefined });

/** A prepared POST: the answer, and the checksum it was asked with (its algorithm and the file's digest). */
export interface PreparedPost {
  answer: PostAnswer;
  algorithm: ChecksumAlgorithm | undefined;
  hashed: SinglePutChecksum | undefined;
}

/**
 * Asks the endpoint for a POST of `upload.file` (`_upload.strategy`: `strategy`), with the checksum of `algorithm`
 * when given; without one, a route that wants one answers `CHECKSUM_REQUIRED`: its algorithm is hashed and asked
 * again, once. The route's algorithm the answer names is learnt.
 * @throws {@link UploadClientError} `INVALID_PREPARE_RESPONSE` when the answer has no `url` and `fields` (and is
 *   not `alreadyStored`); the endpoint's refusals as `uploadFile`.
 */
export async function preparePost(upload: UploadContext, strategy: UploadStrategy, algorithm: ChecksumAlgorithm | undefined): Promise<PreparedPost> {
  const ask = async (algorithm: ChecksumAlgorithm | undefined): Promise<PreparedPost> => {
    const hashed = algorithm ? await singlePutChecksum(upload.file, algorithm) : undefined;
    const marker: UploadMarker = { strategy, ...(algorithm && { checksum: { algorithm, value: hashed!.value! } }) };
    const answer = await postToEndpoint<PostAnswer>(upload, { marker, fields: POST_FIELDS });
    if (!answer.alreadyStored && (!answer.url || typeof answer.fields !== 'object' || answer.fields === null)) {
      throw new UploadClientError('INVALID_PREPARE_RESPONSE', 'Upload endpoint answered without url and fields.');
    }
    learnChecksum(upload, answer.checksum);
    return { answer, algorithm, hashed };
  };
  try {
    return await ask(algorithm);
  } catch (error) {
    // Asked without a value, the route wants one (its algorithm now known): hashed and asked again, once.
    const required = !algorithm && isUploadClientError(error) && error.answerCode === 'CHECKSUM_REQUIRED' && routeChecksum(upload);
    if (!required) throw error;
    return ask(required);
  }
}

/** The stored object's address: the POST URL (the bucket's, path-style or virtual-hosted) and the key. */
export const postedObjectUrl = (url: string, key: string): string => `${url.replace(/\/+$/, '')}/${keyPath(key)}`;
