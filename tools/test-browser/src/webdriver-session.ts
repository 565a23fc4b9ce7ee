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

/**
 * How long one WebDriver command may go without an answer, in milliseconds. Under load WebKitWebDriver
 * sometimes never answers one command (a different one each time) and the test would wait for its own
 * 120 s timeout; every command of the suites (a navigation, a script that waits for an upload included)
 * answers within seconds on a loaded machine, so a command 30 s late has hung: it fails then, naming
 * itself, and CI's retry of the test starts 90 s sooner.
 */
export const COMMAND_TIMEOUT_MS = 30_000;

/** One command: its name in the WebDriver specification (for errors), its method, URL and JSON body. */
interface Command {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: unknown;
}

/**
 * Sends one command and reads its answer.
 * @throws {@link WebDriverError} `timeout` (`WebKitWebDriver did not answer Navigate To (POST
 *   /session/<id>/url) within 30000 ms.`) when the driver has not answered within `timeoutMs`; the driver's
 *   error code otherwise.
 */
async function send({ name, method, url, body }: Command, timeoutMs: number): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let answer: { value: unknown };
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    answer = (await response.json()) as { value: unknown };
  } catch (error) {
    if (!signal.aborted) throw error;
    throw new WebDriverError('timeout', `WebKitWebDriver did not answer ${name} (${method} ${new URL(url).pathname}) within ${timeoutMs} ms.`);
  }
  const error = answer.value as { error?: string; message?: string } | null;
  if (!response.ok || (error && typeof error === 'object' && 'error' in error)) {
    throw new WebDriverError(error?.error ?? `HTTP ${response.status}`, error?.message ?? '');
  }
  return answer.value;
}

/** Options of {@link WebDriverSession.create}. */
export interface SessionOptions {
  /** How long each command may go without an answer, in milliseconds. @default COMMAND_TIMEOUT_MS (30 s) */
  commandTimeoutMs?: number;
}

/** One WebDriver session: one browser window. */
export class WebDriverSession {
  private constructor(
    private readonly base: string,
    private readonly timeoutMs: number,
  ) {}

  /** Opens a session on the driver at `driverUrl` (e.g. `http://127.0.0.1:4444`) with these capabilities. */
  static async create(driverUrl: string, alwaysMatch: Record<string, unknown>, options: SessionOptions = {}): Promise<WebDriverSession> {
    const { commandTimeoutMs = COMMAND_TIMEOUT_MS } = options;
    const command: Command = { name: 'New Session', method: 'POST', url: `${driverUrl}/session`, body: { capabilities: { alwaysMatch } } };
    const { sessionId } = (await send(command, commandTimeoutMs)) as { sessionId: string };
    return new WebDriverSession(`${driverUrl}/session/${sessionId}`, commandTimeoutMs);
  }

  /** Whether the driver at `driverUrl` answers its status command ready. */
  static async ready(driverUrl: string): Promise<boolean> {
    try {
      return ((await send({ name: 'Status', method: 'GET', url: `${driverUrl}/status` }, COMMAND_TIMEOUT_MS)) as { ready?: boolean }).ready === true;
    } catch {
      return false;
    }
  }

  /** Sends a command of this session (`path` after `/session/<id>`). */
  private command(name: string, method: Command['method'], path: string, body?: unknown): Promise<unknown> {
    return send({ name, method, url: `${this.base}${path}`, body }, this.timeoutMs);
  }

  /** Navigates and waits for the page to load (the session's page load strategy, `normal` by default). */
  async navigate(url: string): Promise<void> {
    await this.command('Navigate To', 'POST', '/url', { url });
  }

  /** The first element matching a CSS selector; a `no such element` error when none does. */
  async findElement(selector: string): Promise<string> {
    const found = (await this.command('Find Element', 'POST', '/element', { using: 'css selector', value: selector })) as Record<string, string>;
    return found[ELEMENT_KEY]!;
  }

  async click(element: string): Promise<void> {
    await this.command('Element Click', 'POST', `/element/${element}/click`, {});
  }

  /** Types text into an element; into an `<input type="file">`, the text is a file path to set. */
  async sendKeys(element: string, text: string): Promise<void> {
    await this.command('Element Send Keys', 'POST', `/element/${element}/value`, { text });
  }

  /** Presses and releases a key (W3C WebDriver key actions) on the focused element. */
  async pressKey(key: 'Tab' | 'Enter' | 'Space'): Promise<void> {
    const value = WEBDRIVER_KEYS[key];
    await this.command('Perform Actions', 'POST', '/actions', {
      actions: [{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value }, { type: 'keyUp', value }] }],
    });
  }

  /** Runs a script body (`return ...` for a result) with JSON arguments as `arguments[i]`. */
  async execute(script: string, args: unknown[]): Promise<unknown> {
    return this.command('Execute Script', 'POST', '/execute/sync', { script, args });
  }

  /** Ends the session and closes its browser. */
  async delete(): Promise<void> {
    await this.command('Delete Session', 'DELETE', '');
  }
}
