/**
 * The floor of a multipart upload in the browser: what any client must do, and nothing more. The page server
 * creates the multipart upload and presigns every part (`/api/floor-multipart/create`); the page sends each
 * part as a `Blob.slice()` with XMLHttpRequest, `queueSize` at once, reads its ETag, and asks the page
 * server to complete (`/api/floor-multipart/complete`). No progress, retry, cancel or signing batches.
 * Beside the curl multipart floor it shows what the browser itself costs; beside Upbeam's multipart modes,
 * what Upbeam's engine costs on top.
 */

/** The page server's answer to `create`: the upload and one presigned UploadPart URL per part, in order. */
export interface FloorMultipartPlan {
  key: string;
  uploadId: string;
  urls: string[];
}

/**
 * Sends one part (with `headers`: a part signed in headers); resolves its ETag. `onProgress` (bytes of the part
 * sent) adds an upload listener, as every client that shows progress has: the question whether the browser's
 * progress events cost throughput.
 */
export function sendPart(url: string, body: Blob | Uint8Array<ArrayBuffer>, onProgress?: (sent: number) => void, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const name in headers) xhr.setRequestHeader(name, headers[name]!);
    if (onProgress) xhr.upload.addEventListener('progress', (event) => onProgress(event.loaded));
    xhr.onload = () => {
      const etag = xhr.getResponseHeader('ETag');
      if (xhr.status < 300 && etag) resolve(etag);
      else reject(new Error(`UploadPart failed: ${xhr.status}${etag ? '' : ', no ETag'}`));
    };
    xhr.onerror = () => reject(new Error('UploadPart failed: network'));
    xhr.send(body);
  });
}

/** POSTs `body` as JSON to the page server; resolves its JSON answer (throws on a status over 299). */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url} failed: ${response.status}`);
  return (await response.json()) as T;
}

/**
 * How the floor reads a part (issue 46, the cost of a checksum: bench:checksums with `CHECKSUM_FLOORS=1`):
 * - `blob` (default): sends the `Blob.slice()`; the network service reads it.
 * - `blob-crc32c`: reads the slice into memory and hashes it (CRC32C, hash-wasm, main thread), then sends the
 *   slice: the file read twice, as a client that hashes before it sends.
 * - `bytes`: reads the slice into memory and sends those bytes: one read, by the page.
 * - `bytes-crc32c`: reads it, hashes the bytes read, sends them: a checksum with one read.
 */
export type FloorPartRead = 'blob' | 'blob-crc32c' | 'bytes' | 'bytes-crc32c';

/** The part's body as `read` says, after hashing it where `read` asks. */
async function partBody(part: Blob, read: FloorPartRead): Promise<Blob | Uint8Array<ArrayBuffer>> {
  if (read === 'blob') return part;
  const bytes = new Uint8Array(await part.arrayBuffer());
  if (read.endsWith('-crc32c')) {
    const { createCRC32 } = await import('hash-wasm');
    const crc = await createCRC32(0x82f63b78);
    crc.init();
    crc.update(bytes);
    crc.digest('binary');
  }
  return read.startsWith('blob') ? part : bytes;
}

/**
 * Uploads `file` in parts of `partSize` bytes, `queueSize` at once; resolves the object's URL. With
 * `onProgress`, each part's upload events are listened to and the bytes sent summed (no throttle, no render).
 * `read`: how each part is read (see {@link FloorPartRead}).
 */
export async function floorMultipart(
  file: File,
  partSize: number,
  queueSize: number,
  onProgress?: (sent: number) => void,
  read: FloorPartRead = 'blob',
): Promise<string> {
  const plan = await postJson<FloorMultipartPlan>('/api/floor-multipart/create', { size: file.size, partSize });
  const etags: string[] = [];
  const sent = new Array<number>(plan.urls.length).fill(0);
  let total = 0;
  let next = 0;
  const worker = async () => {
    while (next < plan.urls.length) {
      const index = next++;
      const partProgress =
        onProgress &&
        ((bytes: number) => {
          total += bytes - sent[index]!;
          sent[index] = bytes;
          onProgress(total);
        });
      const body = await partBody(file.slice(index * partSize, (index + 1) * partSize), read);
      etags[index] = await sendPart(plan.urls[index]!, body, partProgress);
    }
  };
  await Promise.all(Array.from({ length: queueSize }, worker));
  const { url } = await postJson<{ url: string }>('/api/floor-multipart/complete', { key: plan.key, uploadId: plan.uploadId, etags });
  return url;
}
