/**
 * The temporary-token strategy's preparation request. Apart from the strategy's lazy chunk so that
 * `uploadFile` can ask for a single PUT's credentials while that chunk loads: a page's first token upload
 * then waits for one round trip before its PUT, not for the chunk's and then the endpoint's.
 */
import type { TemporaryTokenUploadResponse, UploadMarker } from '@upbeam/upload-protocol';
import { postToEndpoint } from '../prepare';
import { learnChecksum } from '../route-checksum';
import type { UploadContext } from '../types';

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
 * Asks the endpoint for temporary credentials: for a new object key, or (`ticket`, from an earlier answer)
 * fresh ones for that answer's key. The `checksum` option's algorithm goes with a first request
 * (`_upload.checksum`, no value: the browser hashes after the answer), so that the server answers with it, or
 * refuses it (`CHECKSUM_UNSUPPORTED`) where its storage does not verify it; without the option the answer's
 * `checksum` is the route's, which the page then remembers for the route (the tracker hashes the next queued
 * file ahead with it).
 * @throws as {@link postToEndpoint}: `INVALID_PREPARE_RESPONSE` when the answer lacks a key, bucket, region
 *   or one of the three credentials.
 */
export async function prepareToken(upload: UploadContext, ticket?: string): Promise<TemporaryTokenUploadResponse> {
  const algorithm = upload.options.checksum;
  const marker: UploadMarker = ticket
    ? { strategy: 'temporary-token', renew: { ticket } }
    : { strategy: 'temporary-token', ...(algorithm && { checksum: { algorithm } }) };
  const answer = await postToEndpoint<TemporaryTokenUploadResponse>(upload, { marker, fields: TOKEN_FIELDS });
  if (!ticket) learnChecksum(upload, answer.checksum);
  return answer;
}
