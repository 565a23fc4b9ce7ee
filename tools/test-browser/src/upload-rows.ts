/** An upload row of the examples' hand-made pages (the Vue, Svelte, Solid and Angular examples). */
export const EXAMPLE_ROW = '[data-testid="upload"]';

/** An upload row of `<Uploader>` from `@upbeam/upload-react/components` (the React and Next.js examples). */
export const UPLOADER_ROW = '[data-upbeam="row"]';

/**
 * The upload rows whose `data-progress` the pages record: a hand-made page's and `<Uploader>`'s. Not the
 * `<Uploader>`'s overall bar: it follows the rows a render later, and its values among theirs would read as
 * progress going back.
 */
export const UPLOAD_ROWS = `${EXAMPLE_ROW}, ${UPLOADER_ROW}`;
