import { readProgress, recordProgress } from './chromium-context';
import type { TestBrowser, TestPage } from './test-page';

/** A page of the examples (an upload row per file with `data-progress`), recording its progress values. */
export interface ExamplePage extends TestPage {
  /** Every progress value the page rendered since it opened, in order: one per React commit that changed it. */
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
  readySelector = '[data-testid="file-input"]',
): Promise<ExamplePage> {
  const page = await browser.newPage();
  await page.goto(origin);
  await page.evaluate(recordProgress, undefined);
  const deadline = Date.now() + RENDER_TIMEOUT_MS;
  while (!(await page.evaluate((selector) => document.querySelector(selector) !== null, readySelector))) {
    if (Date.now() > deadline) throw new Error(`${page.engine}: ${origin} did not render ${readySelector} within ${RENDER_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ...page, progressSeen: () => page.evaluate(readProgress, undefined) };
}
