import puppeteer from 'puppeteer-core';
import { FIREFOX_PATH } from './engines';
import { withQueries, type TestBrowser } from './test-page';

/**
 * Debian's Firefox ESR, headless, driven by puppeteer-core over WebDriver BiDi (Firefox has no DevTools
 * protocol). Puppeteer makes a fresh profile with its own preferences (no updates, telemetry or
 * first-run pages) and removes it on close.
 */
export async function launchFirefox(): Promise<TestBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
  });
  return {
    engine: 'firefox',
    async newPage() {
      const page = await browser.newPage();
      const element = async (selector: string) => {
        const handle = await page.$(selector);
        if (!handle) throw new Error(`firefox: no element matches ${selector}`);
        return handle;
      };
      return withQueries({
        engine: 'firefox',
        goto: async (url) => void (await page.goto(url)),
        click: async (selector) => (await element(selector)).click(),
        // WebDriver BiDi names the space bar by its character.
        press: (key) => page.keyboard.press(key === 'Space' ? ' ' : key),
        setInputFile: async (selector, path) => {
          const input = (await element(selector)) as import('puppeteer-core').ElementHandle<HTMLInputElement>;
          await input.uploadFile(path);
        },
        evaluate: (fn, argument) => page.evaluate(fn as never, argument) as never,
        close: () => page.close(),
      });
    },
    close: () => browser.close(),
  };
}
