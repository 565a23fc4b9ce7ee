import { UploadButton, UploadDropzone, Uploader, UploadList } from '@upbeam/upload-react/components';
import '@upbeam/upload-react/components.css';
import { useS3Upload, type TrackedFile, type UploadResult } from '@upbeam/upload-react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The ready-made components, one per page (`?component=uploader|dropzone|button`, `?theme=light|dark`, the
 * button with `?route=`):
 * the page the components' browser tests and screenshots open. Files from 5 MiB go multipart, so that
 * pause and resume show on small files. Each stored file's result (from `onUploadComplete`) and each
 * error (from `onError`) is listed under the component.
 */
const MiB = 1024 * 1024;
const params = new URLSearchParams(location.search);
const theme = (params.get('theme') ?? 'system') as 'light' | 'dark' | 'system';
const component = params.get('component') ?? 'uploader';
/** An upload route of the endpoint (`?route=`): its rules, read from the endpoint's GET, replace the page's own. */
const route = params.get('route') ?? undefined;
const options = { multipartThreshold: 5 * MiB, partSize: 5 * MiB };
/** A small limit, so that a test can show a file turned away for its size. */
const MAX_SIZE = 64 * MiB;

/** The object URL under a stored file. */
const details = (file: TrackedFile) => (file.url ? <span data-testid="object-url">{file.url}</span> : null);

function Page() {
  const [outcomes, setOutcomes] = useState<string[]>([]);
  const onUploadComplete = (result: UploadResult) => setOutcomes((list) => [...list, `stored ${result.key}`]);
  const onError = (error: unknown) => setOutcomes((list) => [...list, `failed ${(error as Error).message}`]);
  const shared = useS3Upload(options);
  return (
    <main className={`components-page ${theme}`} data-theme={theme}>
      <h1>Upload</h1>
      {component === 'uploader' && (
        <Uploader theme={theme} options={options} maxSize={MAX_SIZE} folders details={details} onUploadComplete={onUploadComplete} onError={onError} />
      )}
      {component === 'dropzone' && (
        <>
          <UploadDropzone theme={theme} upload={shared} accept="image/*,.txt" maxSize={MAX_SIZE} />
          <UploadList theme={theme} upload={shared} />
        </>
      )}
      {component === 'button' && (
        <UploadButton
          theme={theme}
          route={route}
          options={options}
          accept={route ? undefined : 'image/*,.txt,.bin'}
          maxSize={route ? undefined : MAX_SIZE}
          onUploadComplete={onUploadComplete}
          onError={onError}
        />
      )}
      <ul aria-label="Outcomes" data-testid="outcomes">
        {outcomes.map((line, index) => (
          <li key={index}>{line}</li>
        ))}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Page />
  </StrictMode>,
);
