import type { BrowserContext, Page } from 'playwright-core';

/**
 * Opens an example page (an upload row per file with `data-progress`) with a bounded upload bandwidth (DevTools network emulation; `-1` leaves it
 * unbounded), and records every progress value the page renders (`data-progress`), for
 * {@link progressSeen}.
 */
export async function openPage(context: BrowserContext, origin: string, uploadBytesPerSecond: number): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: uploadBytesPerSecond,
  });
  await page.goto(origin);
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        const value = (record.target as Element).getAttribute?.('data-progress');
        if (value !== null && value !== undefined) seen.push(Number(value));
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-progress'] });
  });
  return page;
}

/** Every progress value the page rendered, in order. */
export const progressSeen = (page: Page): Promise<number[]> =>
  page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
