import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './engines';

/**
 * Flags for headless chromium here: keep it off the network it cannot reach (background networking,
 * component updates, sync, QUIC) and let it run as root in a container.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** A playwright-core chromium context with a fresh profile; `close()` ends the browser and removes the profile. */
export interface ChromiumContext {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless chromium with a fresh profile, for the chromium-only suites that use playwright-core
 * directly (request interception, DevTools network emulation): the retry and fault-run suites.
 */
export async function launchChromiumContext(): Promise<ChromiumContext> {
  const profile = await mkdtemp(join(tmpdir(), 'upbeam-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens an example page (an upload row per file with `data-progress`) in a chromium context, with a bounded
 * upload bandwidth (DevTools network emulation; `-1` leaves it unbounded), and records every progress value
 * the page renders (`data-progress`), for {@link chromiumProgressSeen}.
 */
export async function openChromiumPage(context: BrowserContext, origin: string, uploadBytesPerSecond: number): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: uploadBytesPerSecond,
  });
  await page.goto(origin);
  await page.evaluate(recordProgress, undefined);
  return page;
}

/** Every progress value a page of {@link openChromiumPage} rendered, in order. */
export const chromiumProgressSeen = (page: Page): Promise<number[]> => page.evaluate(readProgress, undefined);

/**
 * Runs in the page: records every value of `data-progress` the page renders, in `window.progressSeen`.
 * Each change of the attribute is one React commit of a new progress value.
 */
export function recordProgress(): void {
  const seen: number[] = [];
  (window as unknown as { progressSeen: number[] }).progressSeen = seen;
  new MutationObserver((records) => {
    for (const record of records) {
      const value = (record.target as Element).getAttribute?.('data-progress');
      if (value !== null && value !== undefined) seen.push(Number(value));
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-progress'] });
}

/** Runs in the page: the values {@link recordProgress} saw. */
export function readProgress(): number[] {
  return (window as unknown as { progressSeen: number[] }).progressSeen;
}
