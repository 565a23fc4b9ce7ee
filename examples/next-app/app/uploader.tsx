'use client';
import { useS3Upload, type TrackedFile, type UploadStrategy } from '@upbeam/upload-react';
import { useState } from 'react';

const STRATEGIES: { value: UploadStrategy; label: string }[] = [
  { value: 'presigned', label: 'Presigned URL (one PUT)' },
  { value: 'temporary-token', label: 'Temporary token (multipart)' },
];

/** The two preparation routes of this app, the same handler in either router. */
const ROUTES: { url: string; label: string }[] = [
  { url: '/api/s3-upload', label: 'App Router (app/api/s3-upload/route.ts)' },
  { url: '/api/pages-router/s3-upload', label: 'Pages Router (pages/api/pages-router/s3-upload.ts)' },
];

function describe(error: unknown): string {
  return error instanceof Error || error instanceof DOMException ? `${error.name}: ${error.message}` : String(error);
}

const MiB = 1024 * 1024;

/**
 * Where files go multipart here (the library's default is 100 MiB), so that the demo shows parts, pause and
 * resume on files of modest size: from 32 MiB with presigned URLs (a photo still goes in one PUT), from 5 MiB
 * (one part) with the temporary token, as its label says.
 */
const MULTIPART_THRESHOLD: Record<UploadStrategy, number> = { presigned: 32 * MiB, 'temporary-token': 5 * MiB };

interface UploadActions {
  onCancel: () => void;
  onPause: () => void;
  onResume: () => void;
}

/** One tracked file: name, status, a progress bar (percent), its buttons and, once stored, the object's URL. */
function Upload({ tracked, onCancel, onPause, onResume }: { tracked: TrackedFile } & UploadActions) {
  const running = tracked.status === 'uploading' || tracked.status === 'paused';
  // Only a multipart upload pauses (a single PUT could only start over).
  const pausable = tracked.multipart;
  return (
    <li className="upload" data-testid="upload" data-status={tracked.status} data-progress={tracked.progress}>
      <div className="upload-head">
        <span className="name">{tracked.file.name}</span>
        <span className="status">{tracked.status}</span>
      </div>
      <progress max={100} value={tracked.progress} aria-label={`${tracked.file.name} progress`} />
      <div className="upload-foot">
        <span>
          {Math.round(tracked.progress)}% · {tracked.uploaded.toLocaleString('en-US')} of{' '}
          {tracked.size.toLocaleString('en-US')} bytes
        </span>
        {running && pausable && (
          <button type="button" data-testid="pause" onClick={tracked.status === 'paused' ? onResume : onPause}>
            {tracked.status === 'paused' ? 'Resume' : 'Pause'}
          </button>
        )}
        {running && (
          <button type="button" data-testid="cancel" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {tracked.url && (
        <a className="object-url" data-testid="object-url" href={tracked.url} target="_blank" rel="noreferrer">
          {tracked.url}
        </a>
      )}
    </li>
  );
}

/** The file picker, the strategy selector and the list of uploads with their progress. */
export function Uploader() {
  const [strategy, setStrategy] = useState<UploadStrategy>('presigned');
  const [route, setRoute] = useState(ROUTES[0]!.url);
  // Off by default: a failed multipart upload is then aborted on storage; on, it is kept to continue.
  const [resumable, setResumable] = useState(false);
  const { FileInput, openFileDialog, uploadToS3, files, cancel, pause, resume, resetFiles } = useS3Upload({
    strategy,
    endpoint: { url: route },
    multipartThreshold: MULTIPART_THRESHOLD[strategy],
    resume: resumable,
  });
  const [error, setError] = useState<string>();

  const onFile = async (file: File) => {
    setError(undefined);
    try {
      await uploadToS3(file);
    } catch (thrown) {
      setError(describe(thrown));
    }
  };

  return (
    <>
      <fieldset className="strategy">
        <legend>Strategy</legend>
        {STRATEGIES.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name="strategy"
              value={option.value}
              checked={strategy === option.value}
              onChange={() => setStrategy(option.value)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <fieldset className="strategy">
        <legend>Route</legend>
        {ROUTES.map((option) => (
          <label key={option.url}>
            <input
              type="radio"
              name="route"
              value={option.url}
              checked={route === option.url}
              onChange={() => setRoute(option.url)}
            />
            {option.label}
          </label>
        ))}
      </fieldset>
      <label className="resume">
        <input type="checkbox" checked={resumable} onChange={(event) => setResumable(event.target.checked)} />
        Resume interrupted uploads (parts kept in this browser)
      </label>
      <FileInput onChange={onFile} data-testid="file-input" />
      <div className="actions">
        <button type="button" className="primary" onClick={openFileDialog}>
          Pick a file
        </button>
        <button
          type="button"
          onClick={() => cancel()}
          disabled={!files.some((f) => f.status === 'uploading' || f.status === 'paused')}
        >
          Cancel all
        </button>
        <button type="button" onClick={resetFiles} disabled={files.length === 0}>
          Clear list
        </button>
      </div>
      {error && (
        <p className="error" role="alert" data-testid="error">
          {error}
        </p>
      )}
      <ul className="uploads">
        {files.map((tracked) => (
          <Upload
            key={tracked.id}
            tracked={tracked}
            onCancel={() => cancel(tracked.id)}
            onPause={() => pause(tracked.id)}
            onResume={() => resume(tracked.id)}
          />
        ))}
      </ul>
    </>
  );
}
