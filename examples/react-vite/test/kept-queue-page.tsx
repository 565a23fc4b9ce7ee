/**
 * The page of `kept-queue-scope.e2e.test.ts`: an app with sign-in, as the persistence guide tells it to keep
 * its queue. The signed-in user is the `session` cookie (the test signs in and out by setting it); the page
 * mounts `useS3Upload` with `persist: { scope: user }` and draws one row per file; `?signout` is the app's
 * sign-out page: no uploader, it calls `clearKeptUploads(user)`. The test reads the rows and calls
 * `window.keptQueue.add(...)`.
 */
import { clearKeptUploads } from '@upbeam/upload-client';
import { useS3Upload } from '@upbeam/upload-react';
import { createRoot } from 'react-dom/client';

export interface KeptQueuePage {
  /** Adds files made in the page: `size` bytes of a formula of `seed`, with a fixed `lastModified` (the same file each time). */
  add(files: { name: string; seed: number; size: number }[]): void;
  /** `clearKeptUploads` of the signed-in user, done (the sign-out page sets it). */
  signedOut?: boolean;
}

declare global {
  interface Window {
    keptQueue: KeptQueuePage;
  }
}

const MiB = 1024 * 1024;
/** One `lastModified` for every file, in milliseconds since the epoch: a file made twice is the same file to the journal. */
const LAST_MODIFIED = 1_700_000_000_000;
const user = /(?:^|; )session=([^;]*)/.exec(document.cookie)?.[1];

function bytesOf(seed: number, size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 255;
  return bytes;
}

function Uploader({ scope }: { scope: string }) {
  // Files from 5 MiB go multipart, in parts of 5 MiB.
  const { addFiles, files } = useS3Upload({ persist: { scope }, multipartThreshold: 5 * MiB, partSize: 5 * MiB });
  window.keptQueue.add = (specs) =>
    addFiles(specs.map(({ name, seed, size }) => new File([bytesOf(seed, size)], name, { type: 'application/octet-stream', lastModified: LAST_MODIFIED })));
  return (
    <ul>
      {files.map((file) => (
        <li
          key={file.id}
          data-upbeam="row"
          data-name={file.file.name}
          data-status={file.status}
          data-restored={file.restored ? 'true' : undefined}
          data-persistence={file.persistence}
        >
          {file.file.name}
        </li>
      ))}
    </ul>
  );
}

window.keptQueue = { add: () => {} };
if (new URLSearchParams(location.search).has('signout')) {
  void clearKeptUploads(user).then(() => (window.keptQueue.signedOut = true));
} else if (user) {
  createRoot(document.getElementById('root')!).render(<Uploader scope={user} />);
}
