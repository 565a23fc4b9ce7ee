import type { TrackedFile } from '@upbeam/upload-solid';
import { Show } from 'solid-js';
import { describeError, formatBytes, STATUS_TEXT } from '@upbeam/example-shared/format';

/** One file: name, friendly status, its progress, its buttons and, once stored, its URL. */
export function UploadRow(props: {
  tracked: TrackedFile;
  onCancel: () => void;
  onPause: () => void;
  onResume: () => void;
  onRetry: () => void;
  onRemove: () => void;
}) {
  const status = () => props.tracked.status;
  const running = () => status() === 'uploading' || status() === 'paused';
  const ended = () => status() === 'done' || status() === 'error' || status() === 'aborted';
  const name = () => props.tracked.path ?? props.tracked.file.name;

  return (
    <li class={`upload ${status()}`} data-testid="upload" data-status={status()} data-progress={props.tracked.progress}>
      <div class="upload-body">
        <div class="upload-head">
          <span class="name">{name()}</span>
          <span class="status" data-testid="status">
            {STATUS_TEXT[status()]}
          </span>
        </div>
        <progress max="100" value={props.tracked.progress} aria-label={`${name()} progress`} />
        <div class="upload-foot">
          <span class="amount">
            {Math.floor(props.tracked.progress)}% · {formatBytes(props.tracked.uploaded)} of {formatBytes(props.tracked.size)}
          </span>
          <span class="buttons">
            <Show when={running() && props.tracked.multipart}>
              <button type="button" onClick={() => (status() === 'paused' ? props.onResume() : props.onPause())}>
                {status() === 'paused' ? 'Resume' : 'Pause'}
              </button>
            </Show>
            <Show when={running() || status() === 'queued'}>
              <button type="button" data-testid="cancel" onClick={() => props.onCancel()}>
                Cancel
              </button>
            </Show>
            <Show when={status() === 'error' || status() === 'aborted'}>
              <button type="button" data-testid="retry" onClick={() => props.onRetry()}>
                Retry
              </button>
            </Show>
            <Show when={ended()}>
              <button type="button" aria-label={`Remove ${name()}`} onClick={() => props.onRemove()}>
                Remove
              </button>
            </Show>
          </span>
        </div>
        <Show when={status() === 'error'}>
          <p class="error" role="alert" data-testid="error">
            {describeError(props.tracked.error)}
          </p>
        </Show>
        <Show when={props.tracked.url}>
          {(url) => (
            <a class="object-url" data-testid="object-url" href={url()} target="_blank" rel="noreferrer">
              {url()}
            </a>
          )}
        </Show>
      </div>
    </li>
  );
}
