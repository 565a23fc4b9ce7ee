import type { UploadStrategy } from '@upbeam/upload-client';
import { Uploader } from '@upbeam/upload-react/components';
import '@upbeam/upload-react/components.css';
import { useState } from 'react';
import { fileDetails } from './file-details';

const MiB = 1024 * 1024;

/** Largest file this demo takes, in bytes (checked before any request; the server checks its own). */
const MAX_FILE_SIZE = 5 * 1024 * MiB;

/**
 * Where files go multipart here (the library's default is 100 MiB), so that the demo shows parts, pause and
 * resume on files of modest size: from 32 MiB with presigned URLs (a photo still goes in one PUT), from 5 MiB
 * (one part) with the temporary token, as its label says.
 */
const MULTIPART_THRESHOLD: Record<UploadStrategy, number> = {
  presigned: 32 * MiB,
  'temporary-token': 5 * MiB,
  // Unread: a presigned POST is one object (not offered by this page's radios).
  'presigned-post': 32 * MiB,
};

const STRATEGIES: { value: UploadStrategy; label: string }[] = [
  { value: 'presigned', label: 'Presigned URL (one PUT)' },
  { value: 'temporary-token', label: 'Temporary token (multipart)' },
];

/**
 * `?persist` keeps the queue for after a reload (`persist: true`; `?persist=N`: a budget of N bytes);
 * `?multipartThreshold=N` (bytes) overrides where files go multipart. Read from the address, not a checkbox,
 * because a reload must find them again.
 */
const PAGE_SETTINGS = new URLSearchParams(globalThis.location?.search ?? '');
const PERSIST_BUDGET = Number(PAGE_SETTINGS.get('persist')) || undefined;
const PERSIST = PAGE_SETTINGS.has('persist') && (PERSIST_BUDGET ? { maxBytes: PERSIST_BUDGET } : true);
const THRESHOLD_OVERRIDE = Number(PAGE_SETTINGS.get('multipartThreshold')) || undefined;

export function App() {
  const [strategy, setStrategy] = useState<UploadStrategy>('presigned');
  // Off by default: a failed multipart upload is then aborted on storage; on, it is kept to continue.
  const [resumable, setResumable] = useState(false);

  return (
    <main>
      <h1>Upbeam</h1>
      <p className="lead">
        Drop files: this page asks <code>/api/s3-upload</code> to prepare each upload (a presigned URL, or temporary
        credentials for one object key), then sends the files straight to the bucket, three at a time.
      </p>
      {/* The page's settings, one card: the strategy's radios, then the resume checkbox under them. */}
      <div className="settings">
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
        <label className="resume">
          <input type="checkbox" checked={resumable} onChange={(event) => setResumable(event.target.checked)} />
          Resume interrupted uploads (parts kept in this browser)
        </label>
      </div>
      <Uploader
        options={{
          strategy,
          multipartThreshold: THRESHOLD_OVERRIDE ?? MULTIPART_THRESHOLD[strategy],
          resume: resumable,
          persist: PERSIST,
        }}
        maxSize={MAX_FILE_SIZE}
        folders
        details={fileDetails}
        // With `persist` a reload loses nothing: the tracker restores the queue.
        warnBeforeLeave={!PERSIST}
      />
    </main>
  );
}
