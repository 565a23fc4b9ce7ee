// app/uploader.tsx: the page's side, a file picker with a progress bar per file
'use client';
import { useS3Upload } from '@upbeam/upload-react';

export function Uploader() {
  const { addFiles, files } = useS3Upload(); // POSTs to /api/s3-upload by default
  return (
    <>
      <input type="file" multiple onChange={(event) => addFiles(event.target.files ?? [])} />
      {files.map((f) => (
        <div key={f.id}>
          {f.file.name} <progress value={f.progress} max={100} /> {f.status}
          {f.result && <a href={f.result.url}>{f.result.key}</a>}
        </div>
      ))}
    </>
  );
}
