/**
 * The page of `bench:post`: one file input and four ways to send its file, each from a fresh page: Upbeam's
 * presigned POST (`uploadFile` with `strategy: 'presigned-post'`), Upbeam's presigned single PUT, and two bare
 * floors: the 28-line XHR PUT of the upload benchmark (`bundle/floor.ts`) and the same as a form POST (the answer's
 * fields, then the file, in a `FormData`). Every client keeps its progress (nothing is drawn). The benchmark calls
 * `window.benchUpload({ client })` after setting the file, as the upload benchmark's `runInPage` does.
 */
import { uploadFile } from '@upbeam/upload-client';
import { uploadWithProgress } from '../bundle/floor';
import { longTasksSince } from '../upload/long-tasks';

/** What the benchmark asks the page to do. */
export interface PostPageUpload {
  client: 'post' | 'put' | 'floor' | 'floor-post';
}

declare global {
  interface Window {
    /** The last progress a client reported (bytes, or percent for the PUT floor): kept, not drawn. */
    benchSent?: number;
  }
}

/** Where the preparation endpoint is (`upload/page-server.ts`: the target's Upbeam handler). */
const ENDPOINT = '/api/upbeam';

const input = document.createElement('input');
input.type = 'file';
input.id = 'file';
document.body.append(input);

/** The bare form POST: prepare as presigned-post, then one XHR POST of the fields and the file, with progress. */
async function floorPost(file: File): Promise<string> {
  const filetype = file.type || 'application/octet-stream';
  const response = await fetch(ENDPOINT, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ filename: file.name, filetype, filesize: file.size, _upload: { strategy: 'presigned-post' } }),
  });
  if (!response.ok) throw new Error(`prepare failed: ${response.status}`);
  const { url, fields, key } = (await response.json()) as { url: string; fields: Record<string, string>; key: string };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file);
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onprogress = (event) => (window.benchSent = event.loaded);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`POST failed: ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('POST failed: network'));
    xhr.send(form);
  });
  return `${url}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

window.benchUpload = (async ({ client }: PostPageUpload) => {
  const file = input.files?.[0];
  if (!file) throw new Error('no file set');
  const started = performance.now();
  const onProgress = ({ uploaded }: { uploaded: number }) => (window.benchSent = uploaded);
  let url: string;
  if (client === 'post') ({ url } = await uploadFile(file, { strategy: 'presigned-post', endpoint: { url: ENDPOINT }, onProgress }));
  // One PUT whatever the size (up to 5 GiB), as the POST.
  else if (client === 'put') ({ url } = await uploadFile(file, { multipartThreshold: 5 * 1024 ** 3, endpoint: { url: ENDPOINT }, onProgress }));
  else if (client === 'floor-post') url = await floorPost(file);
  else url = await uploadWithProgress(file, (percent) => (window.benchSent = percent), ENDPOINT);
  const ms = performance.now() - started;
  // The last tasks of the upload may still be queued for the observer: a macrotask lets them arrive.
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { ms, url, longTasks: longTasksSince(started) };
}) as unknown as Window['benchUpload'];
