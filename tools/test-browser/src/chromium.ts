import { launchChromiumContext } from './chromium-context';
import { withQueries, type TestBrowser } from './test-page';

/** Debian's chromium, headless, driven by playwright-core (DevTools protocol). */
export async function launchChromium(): Promise<TestBrowser> {
  const { context, close } = await launchChromiumContext();
  return {
    engine: 'chromium',
    async newPage() {
      const page = await context.newPage();
      return withQueries({
        engine: 'chromium',
        goto: async (url) => void (await page.goto(url)),
        // force: no waiting for the element to stand still (progress text beside a button changes its width).
        click: (selector) => page.locator(selector).first().click({ force: true, timeout: 10_000 }),
        press: (key) => page.keyboard.press(key),
        setInputFile: (selector, path) => page.locator(selector).first().setInputFiles(path),
        evaluate: (fn, argument) => page.evaluate(fn as never, argument) as never,
        close: () => page.close(),
      });
    },
    close,
  };
}
