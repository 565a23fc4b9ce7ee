import type { UploadStrategy } from '@upbeam/upload-client';
import { createDropZone, createS3Upload, type FileRejection } from '@upbeam/upload-solid';
import { createSignal, For, Index, Show } from 'solid-js';
import { MULTIPART_THRESHOLD, STRATEGIES } from '@upbeam/example-shared/format';
import { UploadRow } from './UploadRow';

/** The page: a strategy choice, a drop zone, the overall progress and one row per file. */
export function App() {
  const [strategy, setStrategy] = createSignal<UploadStrategy>('presigned');
  // A change of strategy applies to the files added after it.
  const upload = createS3Upload(() => ({ strategy: strategy(), multipartThreshold: MULTIPART_THRESHOLD[strategy()] }));

  const [rejected, setRejected] = createSignal<FileRejection[]>([]);
  const zone = createDropZone({
    paste: 'document',
    onDrop: (accepted, refused) => {
      if (accepted.length > 0) upload.addFiles(accepted);
      setRejected(refused);
    },
  });
  const count = () => upload.summary().count;
  const active = () => count().queued + count().uploading + count().paused;

  return (
    <main>
      <h1>
        Upbeam <small>Solid</small>
      </h1>
      <p class="lead">
        Drop files: this page asks <code>/api/s3-upload</code> to prepare each upload (a presigned URL, or temporary
        credentials for one object key), then sends the files straight to the bucket, three at a time.
      </p>
      <fieldset class="strategy">
        <legend>Strategy</legend>
        <For each={STRATEGIES}>
          {(option) => (
            <label>
              <input
                type="radio"
                name="strategy"
                value={option.value}
                checked={strategy() === option.value}
                onChange={() => setStrategy(option.value)}
              />
              {option.label}
            </label>
          )}
        </For>
      </fieldset>
      <section class="uploader" aria-label="Uploads">
        <div class="drop-area">
          <div {...zone.rootProps} class="drop-zone" classList={{ active: zone.isDragActive() }} data-testid="drop-zone">
            <input {...zone.inputProps} data-testid="file-input" />
            <strong>{zone.isDragActive() ? 'Drop to upload' : 'Drop files or a folder here'}</strong>
            <span>or press to choose files; you can also paste an image</span>
          </div>
        </div>
        <Show when={rejected().length > 0}>
          <ul class="rejections" role="alert">
            <For each={rejected()}>{(rejection) => <li>{rejection.message}</li>}</For>
          </ul>
        </Show>
        <Show when={upload.files().length > 0}>
          <div class="overall">
            <progress max="100" value={upload.summary().progress} aria-label="All files progress" data-testid="overall-progress" />
            <div class="overall-foot">
              <span data-testid="summary">
                {count().done} of {upload.files().length} uploaded · {Math.floor(upload.summary().progress)}%
              </span>
              <span class="buttons">
                <button type="button" disabled={active() === 0} onClick={() => upload.cancel()}>
                  Cancel all
                </button>
                <button type="button" disabled={active() > 0} onClick={upload.resetFiles}>
                  Clear list
                </button>
              </span>
            </div>
          </div>
        </Show>
        <ul class="uploads">
          {/* By position: a row stays while its file changes (a changed file is a new object, which <For> would
              render as a new row each frame of its upload). */}
          <Index each={upload.files()}>
            {(tracked) => (
              <UploadRow
                tracked={tracked()}
                onCancel={() => upload.cancel(tracked().id)}
                onPause={() => upload.pause(tracked().id)}
                onResume={() => upload.resume(tracked().id)}
                onRetry={() => upload.retry(tracked().id)}
                onRemove={() => upload.remove(tracked().id)}
              />
            )}
          </Index>
        </ul>
      </section>
    </main>
  );
}
