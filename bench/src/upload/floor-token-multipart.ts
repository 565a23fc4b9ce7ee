/**
 * The bare XHR multipart upload of the temporary-token strategy: the same preparation request and the same
 * SigV4 header signatures as Upbeam's token multipart (its own token session, from the client's source), then
 * the bare multipart floor's loop: each part signed just before it is sent, a `Blob.slice()` with a bare
 * `XMLHttpRequest`, `queueSize` at once, no progress, retry or cancel. Beside the presigned bare multipart it
 * tells what storage and the browser do with header-signed parts (radosgw checks the session token of each);
 * beside Upbeam's token multipart, what the client adds.
 */
import type { CompletedPart, TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { createTokenSession } from '../../../packages/upload-client/src/temporary-token/token/create-token-session';
import { postJson, sendPart } from './floor-multipart';

export async function floorTokenMultipart(file: File, endpoint: string, partSize: number, queueSize: number): Promise<string> {
  const contentType = file.type || 'application/octet-stream';
  const prepared = await postJson<TemporaryTokenUploadResponse>(endpoint, {
    filename: file.name,
    filetype: contentType,
    _upload: { strategy: 'temporary-token' },
  });
  const session = createTokenSession({ prepared, renew: () => Promise.reject(new Error('no renewal in the floor')) });
  const uploadId = await session.createMultipartUpload(contentType);
  const count = Math.max(1, Math.ceil(file.size / partSize));
  const parts: CompletedPart[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const { url, headers } = await session.signUploadPart(uploadId, index + 1);
      const etag = await sendPart(url, file.slice(index * partSize, (index + 1) * partSize), undefined, headers);
      parts[index] = { partNumber: index + 1, etag };
    }
  };
  await Promise.all(Array.from({ length: queueSize }, worker));
  await session.completeMultipartUpload(uploadId, parts);
  return session.objectUrl;
}
