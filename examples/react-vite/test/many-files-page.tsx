/**
 * The page of `many-files.e2e.test.ts`: `useS3Upload` with the two documented ways to list many files, side
 * by side, each row counting its renders and what it drew:
 * - `FileRow`: a `memo` row given its `TrackedFile` (the list maps `files`);
 * - `IdRow`: a `memo` row given only the id and the hook's `tracker`, reading its file with `useTrackedFile`.
 * The test reads `window.manyFiles` and calls `window.manyFiles.add(count, bytes)`.
 */
import { useS3Upload, useTrackedFile, type TrackedFile, type TrackedFileStore } from '@upbeam/upload-react';
import { memo, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';

/** What a row drew in one render. */
export interface RowRender {
  status: string;
  uploaded: number;
}

export interface ManyFilesPage {
  /** Renders of the component holding the hook (it maps `files`). */
  listRenders: number;
  /** Commits of that component made while the first file added was already stored. */
  listCommitsAfterFirstDone: number;
  /** Animation frames the page has drawn (a `requestAnimationFrame` loop from the start). */
  frames: number;
  /** What each `FileRow` and each `IdRow` drew in each of its commits, by file id. */
  fileRows: Record<string, RowRender[]>;
  idRows: Record<string, RowRender[]>;
  /** Files per status, from the summary of the last render. */
  count: Record<string, number>;
  /** Object keys of the stored files, from the last render. */
  keys: string[];
  /** Adds `count` files of `bytes` random bytes each (made in the page); returns their ids. */
  add(count: number, bytes: number): string[];
}

declare global {
  interface Window {
    manyFiles: ManyFilesPage;
  }
}

const page: ManyFilesPage = { listRenders: 0, listCommitsAfterFirstDone: 0, frames: 0, fileRows: {}, idRows: {}, count: {}, keys: [], add: () => [] };
window.manyFiles = page;
const countFrames = () => {
  page.frames += 1;
  requestAnimationFrame(countFrames);
};
requestAnimationFrame(countFrames);

function record(rows: Record<string, RowRender[]>, file: TrackedFile): void {
  (rows[file.id] ??= []).push({ status: file.status, uploaded: file.uploaded });
}

// Each row records what it drew when React commits it: a transition's render that React starts over (a sync
// update came meanwhile) runs a row's function again for the same commit.
const FileRow = memo(function FileRow({ file }: { file: TrackedFile }) {
  useLayoutEffect(() => record(page.fileRows, file));
  return (
    <li>
      {file.file.name} <progress value={file.progress} max={100} /> {file.status}
    </li>
  );
});

const IdRow = memo(function IdRow({ tracker, id }: { tracker: TrackedFileStore; id: string }) {
  const file = useTrackedFile(tracker, id);
  useLayoutEffect(() => {
    if (file) record(page.idRows, file);
  });
  if (!file) return null;
  return (
    <li>
      {file.file.name} <progress value={file.progress} max={100} /> {file.status}
    </li>
  );
});

/** A file of `bytes` random bytes (`getRandomValues` fills at most 64 KiB a call). */
function randomFile(name: string, bytes: number): File {
  const data = new Uint8Array(bytes);
  for (let offset = 0; offset < bytes; offset += 65_536) crypto.getRandomValues(data.subarray(offset, offset + 65_536));
  return new File([data], name, { type: 'application/octet-stream' });
}

function Page() {
  const { files, summary, tracker, addFiles } = useS3Upload({ endpoint: { url: '/api/s3-upload' }, concurrency: 1 });
  page.listRenders += 1;
  useLayoutEffect(() => {
    if (files[0]?.status === 'done') page.listCommitsAfterFirstDone += 1;
  });
  page.count = summary.count;
  page.keys = files.flatMap((file) => (file.result ? [file.result.key] : []));
  page.add = (count, bytes) => addFiles(Array.from({ length: count }, (_, index) => randomFile(`file-${index}.bin`, bytes))).map((f) => f.id);
  return (
    <main>
      <ul id="file-rows">
        {files.map((file) => (
          <FileRow key={file.id} file={file} />
        ))}
      </ul>
      <ul id="id-rows">
        {files.map((file) => (
          <IdRow key={file.id} tracker={tracker} id={file.id} />
        ))}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
