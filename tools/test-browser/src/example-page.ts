import { readProgress, recordProgress } from './chromium-context';
import type { TestBrowser, TestPage } from './test-page';
import { EXAMPLE_ROW, UPLOAD_ROWS } from './upload-rows';

/**
 * CSS selectors of the examples' hand-made pages (Vue, Svelte, Solid and Angular render the same markup); the pages that are
 * `<Uploader>` (React, Next.js) have `UPLOADER_SELECTORS`, with these keys and more.
 */
export const EXAMPLE_SELECTORS = {
  fileInput: '[data-testid="file-input"]',
  upload: EXAMPLE_ROW,
  progressBar: `${EXAMPLE_ROW} progress`,
  /** The row's own Cancel button (shown while queued or uploading), not "Cancel all" nor Pause. */
  cancel: `${EXAMPLE_ROW} [data-testid="cancel"]`,
  objectUrl: '[data-testid="object-url"]',
  /** The row's status as the user reads it (`Uploaded`, `Cancelled`, …); `data-status` holds the tracker's word. */
  status: `${EXAMPLE_ROW} [data-testid="status"]`,
  error: '[data-testid="error"]',
  presigned: 'input[name="strategy"][value="presigned"]',
  temporaryToken: 'input[name="strategy"][value="temporary-token"]',
} as const;

/** A display refresh, milliseconds (60 Hz). */
const FRAME_MS = 1000 / 60;

/**
 * Most progress renders an upload of `elapsedMs` should cause: one per display frame (60 Hz), plus 5. More
 * renders than frames is work nobody sees; WebKit fires an upload progress event per 8 KiB sent (~1,500
 * for 12 MiB), each a React render unless the engine throttles its progress reports.
 */
export function progressRenderBudget(elapsedMs: number): number {
  return Math.ceil(elapsedMs / FRAME_MS) + 5;
}

/** A page of the examples (an upload row per file with `data-progress`), recording its progress values. */
export interface ExamplePage extends TestPage {
  /** Every progress value the page rendered on an upload row since it opened, in order: one per commit that changed it. */
  progressSeen(): Promise<number[]>;
}

/** How long the page's first render may take after its `load` event, in milliseconds. */
const RENDER_TIMEOUT_MS = 15_000;

/**
 * Opens an example page at `origin` in the browser, waits for its first render (an element matching
 * `readySelector`: React renders after `load`) and starts recording the progress values it renders.
 */
export async function openExamplePage(
  browser: TestBrowser,
  origin: string,
  readySelector: string = EXAMPLE_SELECTORS.fileInput,
): Promise<ExamplePage> {
  const page = await browser.newPage();
  await page.goto(origin);
  await page.evaluate(recordProgress, UPLOAD_ROWS);
  const deadline = Date.now() + RENDER_TIMEOUT_MS;
  while (!(await page.evaluate((selector) => document.querySelector(selector) !== null, readySelector))) {
    if (Date.now() > deadline) throw new Error(`${page.engine}: ${origin} did not render ${readySelector} within ${RENDER_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ...page, progressSeen: () => page.evaluate(readProgress, undefined) };
}
