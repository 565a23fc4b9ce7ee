/**
 * The floor of a browser upload client: ask the endpoint for a presigned URL, PUT the file with
 * XMLHttpRequest (the one browser API with upload progress), report progress. No retry, no cancel, no
 * multipart, no error detail. It speaks Upbeam's wire contract, so the upload benchmark runs it too.
 */
export async function uploadWithProgress(
  file: File,
  onProgress: (percent: number) => void,
  endpoint = '/api/s3-upload',
): Promise<string> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ filename: file.name, filetype: file.type, _upload: { strategy: 'presigned' } }),
  });
  if (!response.ok) throw new Error(`prepare failed: ${response.status}`);
  const { url, headers } = (await response.json()) as { url: string; headers: Record<string, string> };
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const name in headers) xhr.setRequestHeader(name, headers[name]!);
    xhr.upload.onprogress = (event) => onProgress((event.loaded / event.total) * 100);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`PUT failed: ${xhr.status}`)));
    xhr.onerror = () => reject(new Error('PUT failed: network'));
    xhr.send(file);
  });
  return url.split('?')[0]!;
}
