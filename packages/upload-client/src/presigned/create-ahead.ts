/**
 * The presigned multipart `create` request, in the initial chunk: `uploadFile` sends it while the multipart
 * chunk loads, so that the first part waits for one round trip to the app server, not for the chunk and then
 * the round trip (issue 47: the lead-in). The chunk's `presignedStarter` sends it itself otherwise.
 */
import { MAX_OBJECT_SIZE, type ChecksumRequest, type MultipartUploadResponse } from '@upbeam/upload-protocol';
import { defaultPartSize } from '../multipart-threshold';
import { postToEndpoint } from '../prepare';
import type { UploadContext } from '../types';

/** Asks the endpoint to create the presigned multipart upload of `upload.file` in parts of `partSize` bytes. */
export function askCreate(upload: UploadContext, partSize: number, checksum?: ChecksumRequest | false): Promise<MultipartUploadResponse> {
  return postToEndpoint<MultipartUploadResponse>(upload, {
    marker: { strategy: 'presigned', multipart: { action: 'create', partSize }, ...(checksum && { checksum }) },
    fields: ['key', 'bucket'],
    // Not cancelled in flight: see MultipartStarter.create.
    signal: undefined,
  });
}

/**
 * Sends the `create` of `upload` now, when the multipart chunk will send that very request first: no `partSize`
 * (the default's is known here; a set one is checked by the chunk), `queueSize` and `multipartThreshold` ones the
 * chunk accepts (an invalid option is refused before any request), no `resume` (a kept upload may be continued
 * instead). `undefined` otherwise: the chunk then creates the upload itself. A rejection is left to the chunk's
 * `create`, which awaits the answer (and aborts an upload created during a cancel, as it does its own).
 */
export function createAhead(upload: UploadContext): Promise<MultipartUploadResponse> | undefined {
  const { file, options } = upload;
  const { queueSize = 1, multipartThreshold = 0, checksum } = options;
  const whole = (value: number, low: number) => Number.isInteger(value) && value >= low;
  if (options.resume || options.partSize !== undefined || file.size > MAX_OBJECT_SIZE || !whole(queueSize, 1) || !whole(multipartThreshold, 0)) return undefined;
  const answer = askCreate(upload, defaultPartSize(file.size), checksum && { algorithm: checksum });
  // Handled where it is awaited, in the chunk: not an unhandled rejection while the chunk loads.
  answer.catch(() => {});
  return answer;
}

/**
 * Loads the multipart chunk for an upload whose `create` went `ahead`; when the chunk fails to load (a network
 * error, a deploy that removed it), the upload created meanwhile is aborted, so that no orphaned upload stays
 * on storage, and the load's error is thrown.
 */
export async function loadAfterCreate<Chunk>(upload: UploadContext, ahead: Promise<MultipartUploadResponse> | undefined, load: () => Promise<Chunk>): Promise<Chunk> {
  try {
    return await load();
  } catch (error) {
    const created = await ahead?.catch(() => undefined);
    if (created?.ticket) {
      await postToEndpoint(upload, { marker: { strategy: 'presigned', multipart: { action: 'abort', ticket: created.ticket } }, signal: undefined }).catch(() => {});
    }
    throw error;
  }
}
