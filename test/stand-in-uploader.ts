/**
 * A stand-in for `uploadFile` in the bindings' unit tests (jsdom has no network to storage; the example
 * pages in three browsers upload for real): each upload waits until the test calls its `finishes` entry;
 * cancelling rejects it as `uploadFile` does.
 */
export function standInUploader() {
  const finishes: (() => void)[] = [];
  const uploader = (file: File, options: { signal?: AbortSignal }) =>
    new Promise<{ url: string; bucket: string; key: string }>((resolve, reject) => {
      options.signal?.addEventListener('abort', () => reject(new DOMException('Upload aborted.', 'AbortError')));
      finishes.push(() => resolve({ url: `http://127.0.0.1/b/${file.name}`, bucket: 'b', key: file.name }));
    });
  return { uploader, finishes };
}
