// Uploads that go on after the tab closes (Chromium), and in the page elsewhere.
// public/upbeam-sw.js is a copy of node_modules/@upbeam/upload-client/dist/service-worker.js.
import { useS3Upload } from '@upbeam/upload-react';

export function BackgroundUploader() {
  const { addFiles, files, summary } = useS3Upload({
    strategy: 'presigned-post', // Background Fetch carries a POST form only (no preflight)
    background: { serviceWorker: '/upbeam-sw.js' }, // the default path; `background: true` says the same
  });
  return (
    <>
      <input type="file" multiple onChange={(event) => addFiles(event.target.files ?? [])} />
      {summary.background === 'available' && <p>Uploads go on if you close this tab.</p>}
      <ul>
        {files.map((f) => (
          <li key={f.id}>
            {f.file.name}: {f.status}
            {f.background === 'running' && ' (continues in the background)'}
            {f.restored && ' (sent while the page was closed)'}
          </li>
        ))}
      </ul>
    </>
  );
}
