'use client';
import { useLeaveWarning } from '@upbeam/upload-react/components';
import { useS3Upload, type FileRejection, type UseS3UploadOptions } from '@upbeam/upload-react';
import { useState } from 'react';
import { DropArea } from './drop-area';
import { announcement, summaryText } from './format';
import { UploadRow } from './upload-row';

/**
 * The whole uploader: a drop zone, the overall progress (speed, time left) announced to screen readers,
 * and a row per file. `options` go to `useS3Upload` (strategy, endpoint, multipart settings).
 */
export function Uploader({ options }: { options: UseS3UploadOptions }) {
  const { addFiles, files, summary, cancel, pause, resume, retry, remove, resetFiles } = useS3Upload(options);
  const [rejected, setRejected] = useState<FileRejection[]>([]);
  const { count } = summary;
  const active = count.queued + count.uploading + count.paused;
  useLeaveWarning(active > 0);

  return (
    <section className="uploader" aria-label="Uploads">
      <DropArea onFiles={(picked) => addFiles(picked)} onRejected={setRejected} />
      {rejected.length > 0 && (
        <ul className="rejections" role="alert">
          {rejected.map((rejection) => (
            <li key={`${rejection.path ?? rejection.file.name}-${rejection.code}`}>{rejection.message}</li>
          ))}
        </ul>
      )}
      {files.length > 0 && (
        <div className="overall">
          <progress
            max={100}
            value={summary.progress}
            aria-label="All files progress"
            data-testid="overall-progress"
            data-progress={summary.progress}
          />
          <div className="overall-foot">
            <span data-testid="summary">{summaryText(summary, files.length)}</span>
            <span className="buttons">
              <button type="button" onClick={() => cancel()} disabled={active === 0}>
                Cancel all
              </button>
              <button type="button" onClick={resetFiles} disabled={active > 0}>
                Clear list
              </button>
            </span>
          </div>
        </div>
      )}
      <p className="visually-hidden" aria-live="polite" data-testid="announcement">
        {announcement(summary, files.length)}
      </p>
      <ul className="uploads">
        {files.map((tracked) => (
          <UploadRow
            key={tracked.id}
            tracked={tracked}
            onCancel={() => cancel(tracked.id)}
            onPause={() => pause(tracked.id)}
            onResume={() => resume(tracked.id)}
            onRetry={() => retry(tracked.id)}
            onRemove={() => remove(tracked.id)}
          />
        ))}
      </ul>
    </section>
  );
}
