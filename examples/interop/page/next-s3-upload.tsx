/**
 * next-s3-upload's own client, unchanged, as an app that used it with next-s3-upload's route has it:
 * `usePresignedUpload()` POSTs `{ filename, filetype, _nextS3: { strategy: 'presigned' } }` to the default
 * `/api/s3-upload`, here an Upbeam handler, and PUTs the file to the answered URL.
 */
import { usePresignedUpload } from 'next-s3-upload';
import { createRoot } from 'react-dom/client';

/** What `window.nextS3Upload()` resolves: next-s3-upload's result, or what its `uploadToS3` threw. */
export type NextS3UploadOutcome = { result: { url: string; bucket: string; key: string } } | { error: string };

declare global {
  interface Window {
    nextS3Upload(): Promise<NextS3UploadOutcome>;
  }
}

function Page() {
  const { uploadToS3, files } = usePresignedUpload();
  window.nextS3Upload = async () => {
    const file = (document.getElementById('file') as HTMLInputElement).files![0]!;
    try {
      return { result: await uploadToS3(file) };
    } catch (error) {
      // next-s3-upload throws the answer's `error` text itself (a string), or undefined when storage refuses.
      return { error: String(error) };
    }
  };
  return (
    <main>
      <input type="file" id="file" />
      <ul>
        {files.map((tracked) => (
          <li key={tracked.id} className="tracked" data-progress={tracked.progress} data-uploaded={tracked.uploaded}>
            {tracked.file.name}: <progress value={tracked.progress} max={100} />
          </li>
        ))}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
