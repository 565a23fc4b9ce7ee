import { formatBytes, type TrackedFile } from '@upbeam/upload-react';
import { STATUS_TEXT } from './format';
import { StoredImage } from './stored-image';
import { Thumbnail } from './thumbnail';

export interface UploadActions {
  onCancel: () => void;
  onPause: () => void;
  onResume: () => void;
  onRetry: () => void;
  onRemove: () => void;
}

function describe(error: unknown): string {
  return error instanceof Error || error instanceof DOMException ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The data a server's completion hook returned for this file (`serverData`, once the client passes it on
 * in the upload result); absent until then.
 */
function serverDataOf(tracked: TrackedFile): unknown {
  return (tracked.result as { serverData?: unknown } | undefined)?.serverData;
}

/** One file: preview, name, friendly status, its progress, its buttons and, once stored, its URL. */
export function UploadRow({ tracked, onCancel, onPause, onResume, onRetry, onRemove }: { tracked: TrackedFile } & UploadActions) {
  const { status } = tracked;
  const running = status === 'uploading' || status === 'paused';
  const ended = status === 'done' || status === 'error' || status === 'aborted';
  const name = tracked.path ?? tracked.file.name;
  const serverData = serverDataOf(tracked);
  return (
    <li
      className={`upload ${status}`}
      data-testid="upload"
      data-status={status}
      data-progress={tracked.progress}
      data-name={name}
      data-restored={tracked.restored ? 'true' : undefined}
      data-persistence={tracked.persistence}
    >
      <Thumbnail file={tracked.file} />
      <div className="upload-body">
        <div className="upload-head">
          <span className="name">{name}</span>
          <span className="status" data-testid="status">
            {tracked.restored ? `${STATUS_TEXT[status]} (restored)` : STATUS_TEXT[status]}
          </span>
        </div>
        <progress max={100} value={tracked.progress} aria-label={`${name} progress`} />
        <div className="upload-foot">
          <span className="amount">
            {Math.floor(tracked.progress)}% · {formatBytes(tracked.uploaded)} of {formatBytes(tracked.size)}
          </span>
          <span className="buttons">
            {running && tracked.multipart && (
              <button type="button" onClick={status === 'paused' ? onResume : onPause}>
                {status === 'paused' ? 'Resume' : 'Pause'}
              </button>
            )}
            {(running || status === 'queued') && (
              <button type="button" onClick={onCancel} data-testid="cancel">
                Cancel
              </button>
            )}
            {(status === 'error' || status === 'aborted') && (
              <button type="button" onClick={onRetry} data-testid="retry">
                Retry
              </button>
            )}
            {ended && (
              <button type="button" onClick={onRemove} aria-label={`Remove ${name}`}>
                Remove
              </button>
            )}
          </span>
        </div>
        {status === 'error' && (
          <p className="error" role="alert" data-testid="error">
            {describe(tracked.error)}
          </p>
        )}
        {tracked.url && (
          <a className="object-url" data-testid="object-url" href={tracked.url} target="_blank" rel="noreferrer">
            {tracked.url}
          </a>
        )}
        {status === 'done' && tracked.result && tracked.file.type.startsWith('image/') && <StoredImage objectKey={tracked.result.key} />}
        {serverData !== undefined && (
          <pre className="server-data" data-testid="server-data">
            {JSON.stringify(serverData, null, 2)}
          </pre>
        )}
      </div>
    </li>
  );
}
