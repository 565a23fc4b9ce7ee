/**
 * @module
 * Real browsers for the tests, in three engines, behind one small page API ({@link TestPage}):
 * - chromium: Debian's `chromium`, headless, driven by playwright-core (DevTools protocol);
 * - firefox: Debian's `firefox-esr`, headless, driven by puppeteer-core over WebDriver BiDi;
 * - webkit: WebKitGTK's MiniBrowser through Debian's `WebKitWebDriver` (WebDriver classic) under Xvfb.
 * `scripts/install-browsers.sh` installs them with apt-get; nothing here downloads a browser or a driver.
 * Upload bandwidth is bounded the same way for every engine, by a throttling proxy in front of storage.
 */
import { launchChromium } from './chromium';
import type { Engine } from './engines';
import { launchFirefox } from './firefox';
import type { TestBrowser } from './test-page';
import { launchWebKit } from './webkit';

export { ALL_ENGINES, CHROMIUM_PATH, ENGINES, FIREFOX_PATH, WEBKIT_DRIVER_PATH, type Engine } from './engines';
export { CHROMIUM_ARGS, chromiumProgressSeen, launchChromiumContext, openChromiumPage, type ChromiumContext } from './chromium-context';
export { EXAMPLE_SELECTORS, openExamplePage, progressRenderBudget, type ExamplePage } from './example-page';
export type { Key, TestBrowser, TestPage } from './test-page';
export { UPLOADER_SELECTORS } from './uploader-selectors';
export { startThrottleProxy, type ProxiedRequest, type ThrottleProxy } from './throttle-proxy';

/** Starts a browser of the engine with a fresh profile; `close()` ends it and removes the profile. */
export function launchBrowser(engine: Engine): Promise<TestBrowser> {
  switch (engine) {
    case 'chromium':
      return launchChromium();
    case 'firefox':
      return launchFirefox();
    case 'webkit':
      return launchWebKit();
  }
}
