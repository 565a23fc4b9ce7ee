/**
 * The bare XHR PUT of the temporary-token strategy: the same preparation request and the same SigV4 header
 * signature as Upbeam's token PUT (its own token session, from the client's source), then one bare
 * `XMLHttpRequest` with an upload progress listener, as the bare XHR PUT floor sends. Beside the presigned
 * bare floor it tells what storage and the browser do with a header-signed PUT; beside Upbeam's token PUT,
 * what the client adds.
 */
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { createTokenSession } from '../../../packages/upload-client/src/temporary-token/token/create-token-session';
import { postJson } from './floor-multipart';

export async function floorTokenPut(file: File, endpoint: string, onProgress: (percent: number) => void): Promise<string> {
  const prepared = await postJson<TemporaryTokenUploadResponse>(endpoint, {
    filename: file.name,
    filetype: file.type,
    _upload: { strategy: 'temporary-token' },
  });
  const session = createTokenSession({ prepared, renew: () => Promise.reject(new Error('no renewal in the floor')) });
  const { url, headers } = await session.signPutObject(file.type || 'application/octet-stream');
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const name in headers) xhr.setRequestHeader(name, headers[name]!);
    xhr.upload.onprogress = (event) => onProgress((event.loaded / event.total) * 100);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`PUT failed: ${xhr.status} ${xhr.responseText.slice(0, 200)}`)));
    xhr.onerror = () => reject(new Error('PUT failed: network'));
    xhr.send(file);
  });
  return session.objectUrl;
}
