/**
 * The page of the upload benchmark: one file input and the three browser clients, each used as an app
 * would (the two React hooks render their tracked files' progress). The benchmark calls
 * `window.benchUpload(...)` after setting the file; it resolves when the client's upload resolves.
 */
import { useS3Upload } from '@upbeam/upload-react';
import { usePresignedUpload } from 'next-s3-upload';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { uploadWithProgress } from '../bundle/floor';

/** What the benchmark asks the page to do. */
export interface PageUpload {
  client: 'upbeam' | 'next-s3-upload' | 'floor';
  strategy?: 'presigned' | 'temporary-token';
  queueSize?: number;
  partSize?: number;
}

/** What the page answers: milliseconds from the call to the resolved upload, and the stored object's URL. */
export interface PageUploadResult {
  ms: number;
  url: string;
}

declare global {
  interface Window {
    benchUpload(input: PageUpload): Promise<PageUploadResult>;
  }
}

function Harness() {
  const upbeam = useS3Upload({ endpoint: { url: '/api/upbeam' } });
  const next = usePresignedUpload();
  const [floorProgress, setFloorProgress] = useState(0);

  window.benchUpload = async (input) => {
    const file = (document.getElementById('file') as HTMLInputElement).files?.[0];
    if (!file) throw new Error('no file set');
    const started = performance.now();
    let url: string;
    if (input.client === 'upbeam') {
      ({ url } = await upbeam.uploadToS3(file, {
        strategy: input.strategy ?? 'presigned',
        ...(input.queueSize === undefined ? {} : { queueSize: input.queueSize }),
        ...(input.partSize === undefined ? {} : { partSize: input.partSize }),
      }));
    } else if (input.client === 'next-s3-upload') {
      ({ url } = await next.uploadToS3(file, { endpoint: { request: { url: '/api/next-s3-upload' } } }));
    } else {
      url = await uploadWithProgress(file, setFloorProgress, '/api/upbeam');
    }
    return { ms: performance.now() - started, url };
  };

  return (
    <main>
      <input type="file" id="file" />
      <ul>
        {upbeam.files.map((tracked) => (
          <li key={tracked.id}>
            Upbeam {tracked.file.name}: <progress value={tracked.progress} max={100} /> {tracked.uploaded} bytes
          </li>
        ))}
        {next.files.map((tracked) => (
          <li key={tracked.id}>
            next-s3-upload {tracked.file.name}: <progress value={tracked.progress} max={100} /> {tracked.uploaded} bytes
          </li>
        ))}
        <li>
          floor: <progress value={floorProgress} max={100} />
        </li>
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Harness />);
