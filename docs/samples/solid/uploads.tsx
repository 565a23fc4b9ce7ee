/** @jsxImportSource solid-js */
// Uploads.tsx (the pragma above is for the docs' type check, set for React: a Solid app's tsconfig sets
// `"jsx": "preserve", "jsxImportSource": "solid-js"`)
import { createSignal, Index, Show } from 'solid-js';
import { createDropZone, createS3Upload, type FileRejection } from '@upbeam/upload-solid';

export function Uploads() {
  const [resume, setResume] = createSignal(true);
  // An accessor of options: a change applies to the files added after it.
  const upload = createS3Upload(() => ({ resume: resume(), concurrency: 3 }));
  const [refused, setRefused] = createSignal<FileRejection[]>([]);
  const zone = createDropZone({
    accept: 'image/*,.pdf',
    maxSize: 100 * 1024 * 1024,
    onDrop: (accepted, rejected) => {
      upload.addFiles(accepted);
      setRefused(rejected);
    },
  });

  return (
    <>
      <label>
        <input type="checkbox" checked={resume()} onChange={(event) => setResume(event.currentTarget.checked)} />
        Resume interrupted uploads
      </label>
      <div {...zone.rootProps} class="zone" classList={{ active: zone.isDragActive() }}>
        <input {...zone.inputProps} />
        Drop files here, paste them, or press to choose
      </div>
      <Show when={refused().length > 0}>
        <p role="alert">{refused().map((rejection) => rejection.message).join(' ')}</p>
      </Show>
      <progress value={upload.summary().progress} max="100" aria-label="All files" />
      {/* <Index>: a row per position, kept while its file changes (a changed file is a new object). */}
      <Index each={upload.files()}>
        {(f) => (
          <div>
            {f().path ?? f().file.name} <progress value={f().progress} max="100" /> {f().status}
            <Show when={f().status === 'uploading'}>
              <button onClick={() => upload.cancel(f().id)}>Cancel</button>
            </Show>
            <Show when={f().status === 'error' || f().status === 'aborted'}>
              <button onClick={() => upload.retry(f().id)}>Retry</button>
            </Show>
          </div>
        )}
      </Index>
    </>
  );
}
