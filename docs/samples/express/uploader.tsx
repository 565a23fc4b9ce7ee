// uploader.tsx: the React page served beside it
import { useS3Upload } from '@upbeam/upload-react';

export function Uploader() {
  const { addFiles, files, summary } = useS3Upload(); // POSTs to /api/s3-upload by default
  return (
    <>
      <input type="file" multiple onChange={(event) => addFiles(event.target.files ?? [])} />
      <progress value={summary.progress} max={100} aria-label="All files" />
      <ul>
        {files.map((f) => (
          <li key={f.id}>
            {f.file.name}: {f.status} {f.progress}%
          </li>
        ))}
      </ul>
    </>
  );
}
