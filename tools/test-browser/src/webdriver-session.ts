/**
 * The few W3C WebDriver (classic) commands the suites use, over `fetch`, for WebKitGTK's `WebKitWebDriver`
 * (https://www.w3.org/TR/webdriver2/). Written here rather than taken from webdriverio or
 * selenium-webdriver: both bring driver downloaders along (the `geckodriver` package's install script,
 * selenium-manager binaries), which this repository never installs, for eight HTTP calls.
 */

/** The key under which WebDriver returns an element reference (W3C WebDriver, "web element identifier"). */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

/** The code points WebDriver uses for the keys pressed (W3C WebDriver, "keyboard actions"). */
const WEBDRIVER_KEYS = { Tab: '\uE004', Enter: '\uE007', Space: '\uE00D' } as const;

/** A WebDriver error answer (`{ value: { error, message } }`) as an `Error`. */
export class WebDriverError extends Error {
  override name = 'WebDriverError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

async function send(url: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as { value: unknown };
  const error = answer.value as { error?: string; message?: string } | null;
  if (!response.ok || (error && typeof error === 'object' && 'error' in error)) {
    throw new WebDriverError(error?.error ?? `HTTP ${response.status}`, error?.message ?? '');
  }
  return answer.value;
}

/** One WebDriver session: one browser window. */
export class WebDriverSession {
  private constructor(private readonly base: string) {}

  /** Opens a session on the driver at `driverUrl` (e.g. `http://127.0.0.1:4444`) with these capabilities. */
  static async create(driverUrl: string, alwaysMatch: Record<string, unknown>): Promise<WebDriverSession> {
    const { sessionId } = (await send(`${driverUrl}/session`, 'POST', { capabilities: { alwaysMatch } })) as { sessionId: string };
    return new WebDriverSession(`${driverUrl}/session/${sessionId}`);
  }

  /** Whether the driver at `driverUrl` answers its status command ready. */
  static async ready(driverUrl: string): Promise<boolean> {
    try {
      return ((await send(`${driverUrl}/status`, 'GET')) as { ready?: boolean }).ready === true;
    } catch {
      return false;
    }
  }

  /** Navigates and waits for the page to load (the session's page load strategy, `normal` by default). */
  async navigate(url: string): Promise<void> {
    await send(`${this.base}/url`, 'POST', { url });
  }

  /** The first element matching a CSS selector; a `no such element` error when none does. */
  async findElement(selector: string): Promise<string> {
    const found = (await send(`${this.base}/element`, 'POST', { using: 'css selector', value: selector })) as Record<string, string>;
    return found[ELEMENT_KEY]!;
  }

  async click(element: string): Promise<void> {
    await send(`${this.base}/element/${element}/click`, 'POST', {});
  }

  /** Types text into an element; into an `<input type="file">`, the text is a file path to set. */
  async sendKeys(element: string, text: string): Promise<void> {
    await send(`${this.base}/element/${element}/value`, 'POST', { text });
  }

  /** Presses and releases a key (W3C WebDriver key actions) on the focused element. */
  async pressKey(key: 'Tab' | 'Enter' | 'Space'): Promise<void> {
    const value = WEBDRIVER_KEYS[key];
    await send(`${this.base}/actions`, 'POST', {
      actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value }, { type: 'keyUp', value }] }],
    });
  }

  /** Runs a script body (`return ...` for a result) with JSON arguments as `arguments[i]`. */
  async execute(script: string, args: unknown[]): Promise<unknown> {
    return send(`${this.base}/execute/sync`, 'POST', { script, args });
  }

  /** Ends the session and closes its browser. */
  async delete(): Promise<void> {
    await send(this.base, 'DELETE');
  }
}
