import type { Engine } from './engines';

/**
 * A page in one of the engines, with the few actions the suites need. Selectors are CSS. The driver
 * differences (playwright-core, puppeteer-core over WebDriver BiDi, WebDriver classic) stay behind it.
 */
export interface TestPage {
  readonly engine: Engine;
  /** Loads the URL and waits for its `load` event. */
  goto(url: string): Promise<void>;
  /**
   * Clicks the first element matching the selector, as a user would (the driver's own input): first waits,
   * up to 10 s, for it to be shown and enabled (a user clicks what they see), then clicks it even if not.
   */
  click(selector: string): Promise<void>;
  /**
   * Presses a key with the driver's own keyboard input (trusted events, default actions included: Tab moves
   * the focus, Enter or Space on a focused button clicks it), on the focused element.
   */
  press(key: Key): Promise<void>;
  /** Sets the file of the `<input type="file">` matching the selector (hidden inputs too), firing `change`. */
  setInputFile(selector: string, path: string): Promise<void>;
  /**
   * Runs a function in the page with one JSON argument and returns its JSON result. The function is sent
   * as source text: it must not use anything from the test's scope.
   */
  evaluate<Result, Argument>(fn: (argument: Argument) => Result, argument: Argument): Promise<Result>;
  /** An attribute of the first element matching the selector; `null` without element or attribute. */
  attribute(selector: string, name: string): Promise<string | null>;
  /** `textContent` of the first element matching the selector; `null` without element. */
  text(selector: string): Promise<string | null>;
  /** Whether the first element matching the selector is a checked checkbox or radio button. */
  isChecked(selector: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The keys {@link TestPage.press} knows. */
export type Key = 'Tab' | 'Enter' | 'Space';

/** The engine-specific part of a {@link TestPage}; the rest is written once over `evaluate`. */
export type DriverPage = Pick<TestPage, 'engine' | 'goto' | 'click' | 'press' | 'setInputFile' | 'evaluate' | 'close'>;

/** Longest wait of {@link TestPage.click} for its element to be shown and enabled, in milliseconds. */
const CLICKABLE_TIMEOUT_MS = 10_000;

/**
 * Whether the first element matching the selector is one a user could click: in the document, with a box,
 * not hidden by CSS, not disabled, not inert. Sent to the page as source text.
 */
function clickable(selector: string): boolean {
  const element = document.querySelector(selector);
  if (!element || !element.isConnected || element.getClientRects().length === 0) return false;
  const style = getComputedStyle(element);
  if (style.visibility === 'hidden' || style.pointerEvents === 'none') return false;
  return !element.matches(':disabled') && element.closest('[inert]') === null;
}

/** Waits for {@link clickable}, polling every 50 ms up to {@link CLICKABLE_TIMEOUT_MS}. */
async function untilClickable(driver: DriverPage, selector: string): Promise<void> {
  const deadline = Date.now() + CLICKABLE_TIMEOUT_MS;
  while (!(await driver.evaluate(clickable, selector)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Completes a driver's page with the queries written over `evaluate`. */
export function withQueries(driver: DriverPage): TestPage {
  return {
    engine: driver.engine,
    goto: (url) => driver.goto(url),
    click: async (selector) => {
      await untilClickable(driver, selector);
      await driver.click(selector);
    },
    press: (key) => driver.press(key),
    setInputFile: (selector, path) => driver.setInputFile(selector, path),
    evaluate: (fn, argument) => driver.evaluate(fn, argument),
    close: () => driver.close(),
    attribute: (selector, name) =>
      driver.evaluate(([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null, [selector, name] as const),
    text: (selector) => driver.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector),
    isChecked: (selector) => driver.evaluate((s) => (document.querySelector(s) as HTMLInputElement | null)?.checked === true, selector),
  };
}

/** A running browser; `newPage()` opens a fresh page, `close()` ends the browser and removes its profile. */
export interface TestBrowser {
  readonly engine: Engine;
  newPage(): Promise<TestPage>;
  close(): Promise<void>;
}
