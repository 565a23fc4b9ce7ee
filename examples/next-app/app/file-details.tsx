import type { TrackedFile } from '@upbeam/upload-react';

/**
 * What the example shows under a stored file, beside what `<Uploader>` shows: its object URL. Defined
 * outside any component, as `details` asks (rows are memoized on it), in a module the client component
 * imports: a function cannot cross from a server component to a client one.
 */
export function fileDetails(tracked: TrackedFile) {
  if (!tracked.url) return null;
  return (
    <a className="object-url" data-testid="object-url" href={tracked.url} target="_blank" rel="noreferrer">
      {tracked.url}
    </a>
  );
}
