import type { TestPage } from '@upbeam/test-browser';

/** Records every text of the components' polite live region, from now on (read by {@link announcements}). */
export const recordAnnouncements = (page: TestPage): Promise<void> =>
  page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { announced: string[] }).announced = seen;
    const region = document.querySelector('[data-upbeam="announcement"]')!;
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text && text !== seen.at(-1)) seen.push(text);
    }).observe(region, { subtree: true, childList: true, characterData: true });
  }, undefined);

/** The live region's texts recorded since {@link recordAnnouncements}, in order. */
export const announcements = (page: TestPage): Promise<string[]> => page.evaluate(() => (window as unknown as { announced: string[] }).announced, undefined);
