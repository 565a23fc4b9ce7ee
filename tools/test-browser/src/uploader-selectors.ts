import { EXAMPLE_SELECTORS } from './example-page';

/**
 * CSS selectors of an example page that is `<Uploader>` from `@upbeam/upload-react/components` (the React
 * and Next.js examples): its parts carry `data-upbeam="<part>"`, its buttons `data-action`, its rows
 * `data-status`, `data-progress`, `data-name` (and `data-restored`, `data-persistence` with `persist`). The
 * keys of {@link EXAMPLE_SELECTORS} (the hand-made pages of the Vue and Svelte examples), so that the tests
 * read alike; what an example adds under a file with `details` (`object-url`) and its strategy selector
 * keep theirs.
 */
export const UPLOADER_SELECTORS = {
  ...EXAMPLE_SELECTORS,
  fileInput: '[data-upbeam="dropzone"] [data-upbeam="input"]',
  dropZone: '[data-upbeam="dropzone"]',
  upload: '[data-upbeam="row"]',
  progressBar: '[data-upbeam="row"] progress',
  /** The row's own Cancel button (shown while queued or uploading), not "Cancel all" nor Pause. */
  cancel: '[data-upbeam="row"] [data-action="cancel"]',
  pause: '[data-upbeam="row"] [data-action="pause"]',
  resume: '[data-upbeam="row"] [data-action="resume"]',
  retry: '[data-upbeam="row"] [data-action="retry"]',
  /** The row's status as the user reads it (`Uploaded`, `Cancelled`, …); `data-status` holds the tracker's word. */
  status: '[data-upbeam="row"] [data-upbeam="status"]',
  /** A row's name (or relative path), within a row. */
  name: '[data-upbeam="name"]',
  thumbnailImage: '[data-upbeam="row"] img[data-upbeam="thumbnail"]',
  /** A failed file's error, in words (the error's `message`). */
  error: '[data-upbeam="row"] [data-upbeam="error"]',
  summary: '[data-upbeam="summary"]',
  overallProgress: '[data-upbeam="overall"] [data-upbeam="progress"]',
} as const;
