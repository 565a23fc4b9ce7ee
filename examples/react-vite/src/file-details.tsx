import type { TrackedFile } from '@upbeam/upload-react';
import { StoredImage } from './stored-image';

/**
 * The data a server's completion hook returned for this file (`serverData`, in the upload result);
 * absent until then.
 */
function serverDataOf(tracked: TrackedFile): unknown {
  return (tracked.result as { serverData?: unknown } | undefined)?.serverData;
}

/**
 * What the example shows under a stored file, beside what `<Uploader>` shows: its object URL, the image
 * read back from the private bucket, and the server's answer. Defined outside any component, as
 * `details` asks (rows are memoized on it).
 */
export function fileDetails(tracked: TrackedFile) {
  const serverData = serverDataOf(tracked);
  return (
    <>
      {tracked.url && (
        <a className="object-url" data-testid="object-url" href={tracked.url} target="_blank" rel="noreferrer">
          {tracked.url}
        </a>
      )}
      {tracked.status === 'done' && tracked.result && tracked.file.type.startsWith('image/') && <StoredImage objectKey={tracked.result.key} />}
      {serverData !== undefined && (
        <pre className="server-data" data-testid="server-data">
          {JSON.stringify(serverData, null, 2)}
        </pre>
      )}
    </>
  );
}
