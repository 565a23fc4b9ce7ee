import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { WEBKIT_DRIVER_PATH } from './engines';
import { withQueries, type TestBrowser } from './test-page';
import { WebDriverSession } from './webdriver-session';

/** How long Xvfb and WebKitWebDriver get to start, in milliseconds. */
const START_TIMEOUT_MS = 15_000;

/**
 * WebKitGTK's MiniBrowser (Debian's `webkit2gtk-driver` brings it along with `libwebkit2gtk`), found under
 * `/usr/lib/{multiarch}/webkit2gtk-4.1/` or `-4.0/`; `WEBKIT_BROWSER_PATH` overrides it.
 */
export function miniBrowserPath(): string {
  if (process.env.WEBKIT_BROWSER_PATH) return process.env.WEBKIT_BROWSER_PATH;
  for (const multiarch of readdirSync('/usr/lib').filter((name) => name.endsWith('-linux-gnu'))) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0']) {
      const path = join('/usr/lib', multiarch, api, 'MiniBrowser');
      if (existsSync(path)) return path;
    }
  }
  throw new Error('webkit: MiniBrowser not found under /usr/lib/*-linux-gnu/webkit2gtk-4.*/ (apt-get install webkit2gtk-driver)');
}

/** A port that was free a moment ago on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a virtual X display (MiniBrowser is a GTK window and WebKitGTK has no headless mode); Xvfb picks a
 * free display number itself (`-displayfd`), so runs side by side never collide.
 */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  xvfb.stderr!.on('data', (part: Buffer) => (errors += part.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start within ${START_TIMEOUT_MS} ms: ${errors}`)), START_TIMEOUT_MS);
    let text = '';
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (part: Buffer) => {
      text += part.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      }
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${errors} (apt-get install xvfb)`)));
  });
  return { display, process: xvfb };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * WebKitGTK (the engine of Safari, in its Linux port) driven by Debian's `WebKitWebDriver` over WebDriver
 * classic, in a virtual X display. Each page is a WebDriver session: a fresh MiniBrowser window with an
 * ephemeral profile (about 1.5 s to open).
 */
export async function launchWebKit(): Promise<TestBrowser> {
  const binary = miniBrowserPath();
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: xvfb.display },
  });
  const driverUrl = `http://127.0.0.1:${port}`;
  const stopAll = async () => {
    await stop(driver);
    await stop(xvfb.process);
  };
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await WebDriverSession.ready(driverUrl))) {
      if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode})`);
      if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer within ${START_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  /** Open sessions, ended on close: a MiniBrowser outlives a killed driver. */
  const sessions = new Set<WebDriverSession>();
  return {
    engine: 'webkit',
    async newPage() {
      const session = await WebDriverSession.create(driverUrl, {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary, args: ['--automation'] },
      });
      sessions.add(session);
      return withQueries({
        engine: 'webkit',
        goto: (url) => session.navigate(url),
        click: async (selector) => session.click(await session.findElement(selector)),
        press: (key) => session.pressKey(key),
        setInputFile: async (selector, path) => session.sendKeys(await session.findElement(selector), path),
        evaluate: (fn, argument) => session.execute(`return (${fn.toString()})(arguments[0]);`, [argument]) as never,
        close: async () => {
          sessions.delete(session);
          await session.delete();
        },
      });
    },
    async close() {
      await Promise.allSettled([...sessions].map((session) => session.delete()));
      await stopAll();
    },
  };
}
