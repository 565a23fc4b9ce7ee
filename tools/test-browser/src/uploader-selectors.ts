import { EXAMPLE_SELECTORS } from './example-page';
import { UPLOADER_ROW } from './upload-rows';

/**
 * CSS selectors of an example page that is `<Uploader>` from `@upbeam/upload-react/components` (the React
 * and Next.js examples): its parts carry `data-upbeam="<part>"`, its buttons `data-action`, its rows
 * `data-status`, `data-progress`, `data-name` (and `data-restored`, `data-persistence` with `persist`). The
 * keys of {@link EXAMPLE_SELECTORS} (the hand-made pages of the Vue, Svelte, Solid and Angular examples), so that the tests
 * read alike; what an example adds under a file with `details` (`object-url`) and its strategy selector
 * keep theirs.
 */
export const UPLOADER_SELECTORS = {
  ...EXAMPLE_SELECTORS,
  fileInput: '[data-upbeam="dropzone"] [data-upbeam="input"]',
  dropZone: '[data-upbeam="dropzone"]',
  upload: UPLOADER_ROW,
  progressBar: `${UPLOADER_ROW} progress`,
  /** The row's own Cancel button (shown while queued or uploading), not "Cancel all" nor Pause. */
  cancel: `${UPLOADER_ROW} [data-action="cancel"]`,
  pause: `${UPLOADER_ROW} [data-action="pause"]`,
  resume: `${UPLOADER_ROW} [data-action="resume"]`,
  retry: `${UPLOADER_ROW} [data-action="retry"]`,
  /** The row's status as the user reads it (`Uploaded`, `Cancelled`, …); `data-status` holds the tracker's word. */
  status: `${UPLOADER_ROW} [data-upbeam="status"]`,
  /** A row's name (or relative path), within a row. */
  name: '[data-upbeam="name"]',
  /** An image or video row's preview: a canvas, `data-preview="drawn"` once its picture is in. */
  thumbnailImage: `${UPLOADER_ROW} canvas[data-upbeam="thumbnail"]`,
  /** A failed file's error, in words (the error's `message`). */
  error: `${UPLOADER_ROW} [data-upbeam="error"]`,
  summary: '[data-upbeam="summary"]',
  overallProgress: '[data-upbeam="overall"] [data-upbeam="progress"]',
} as const;
