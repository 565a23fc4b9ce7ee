import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './engines';
import { UPLOAD_ROWS } from './upload-rows';

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
  await page.evaluate(recordProgress, UPLOAD_ROWS);
  return page;
}

/** Every progress value a page of {@link openChromiumPage} rendered, in order. */
export const chromiumProgressSeen = (page: Page): Promise<number[]> => page.evaluate(readProgress, undefined);

/**
 * Runs in the page: records every value of `data-progress` that the page renders on an upload row (an element
 * matching `rows`), in `window.progressSeen`. Each change of the attribute is one commit of a new progress value.
 * A record's new value is the next record's `oldValue` for the same element (or the element's value now, for
 * its last record): an engine may deliver several changes in one callback (WebKit does), and reading the
 * attribute then would give the last value for each. A row inserted with the attribute (first drawn
 * mid-upload, or already done) counts its value too.
 */
export function recordProgress(rows: string): void {
  const seen: number[] = [];
  (window as unknown as { progressSeen: number[] }).progressSeen = seen;
  new MutationObserver((records) => {
    for (const [index, record] of records.entries()) {
      if (record.type === 'childList') {
        for (const node of Array.from(record.addedNodes)) {
          if (!(node instanceof Element)) continue;
          for (const element of [node, ...Array.from(node.querySelectorAll(rows))]) {
            const value = element.matches(rows) ? element.getAttribute('data-progress') : null;
            if (value !== null) seen.push(Number(value));
          }
        }
        continue;
      }
      const target = record.target as Element;
      if (!target.matches(rows)) continue;
      const next = records.slice(index + 1).find((later) => later.type === 'attributes' && later.target === target);
      const value = next ? next.oldValue : target.getAttribute('data-progress');
      if (value !== null && value !== undefined) seen.push(Number(value));
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-progress'] });
}

/** Runs in the page: the values {@link recordProgress} saw. */
export function readProgress(): number[] {
  return (window as unknown as { progressSeen: number[] }).progressSeen;
}
