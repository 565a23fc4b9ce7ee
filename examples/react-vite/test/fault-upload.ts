import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { UploadStrategy } from '@upbeam/upload-server';
import { SELECTORS } from './selectors';

/**
 * Helpers of the retry suites: pick files on the example page and wait for each by its (unique) name,
 * and record the progress every upload renders, per file, to check that it never goes back.
 */

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Selects the strategy radio of the example page. */
export async function chooseStrategy(page: Page, strategy: UploadStrategy): Promise<void> {
  await page.getByLabel(strategy === 'presigned' ? 'Presigned URL (one PUT)' : 'Temporary token (multipart)').check();
}

/** Starts recording, per file name, every `data-progress` value the page renders. */
export async function recordProgressPerFile(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { progressByFile: Record<string, number[]> }).progressByFile = seen;
    const note = (element: Element) => {
      const value = element.getAttribute('data-progress');
      const name = element.querySelector('[data-upbeam="name"]')?.textContent;
      if (value === null || !name) return;
      const list = (seen[name] ??= []);
      if (list.at(-1) !== Number(value)) list.push(Number(value));
    };
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        if (target.nodeType !== 1) continue;
        if (target.matches?.('[data-upbeam="row"]')) note(target);
        for (const node of Array.from(record.addedNodes)) {
          if (node.nodeType === 1) (node as Element).querySelectorAll?.('[data-upbeam="row"]').forEach(note);
          if (node.nodeType === 1 && (node as Element).matches('[data-upbeam="row"]')) note(node as Element);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-progress'] });
  });
}

/** The progress values recorded for each file name. */
export const progressByFile = (page: Page): Promise<Record<string, number[]>> =>
  page.evaluate(() => (window as unknown as { progressByFile: Record<string, number[]> }).progressByFile);

/** How one upload on the page ended. */
export interface PageUpload {
  status: string;
  /** The object URL the page shows when done. */
  url: string | undefined;
  /** The error the page shows when failed (name: message), for the failure's report. */
  error?: string | undefined;
}

/**
 * Waits until the page's item for `name` is no longer `queued` (behind the files in flight) or `uploading`.
 * @param timeoutMs - Bound in milliseconds; throws beyond it.
 */
export async function waitForUpload(page: Page, name: string, timeoutMs: number): Promise<PageUpload> {
  const item = page.locator(SELECTORS.upload).filter({ has: page.locator(SELECTORS.name, { hasText: name }) });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await item.count()) === 1 ? await item.getAttribute('data-status') : null;
    if (status && status !== 'uploading' && status !== 'queued') {
      const link = item.getByTestId('object-url');
      const error = item.locator(SELECTORS.error);
      return {
        status,
        url: (await link.count()) ? ((await link.textContent()) ?? undefined) : undefined,
        error: (await error.count()) ? ((await error.textContent()) ?? undefined) : undefined,
      };
    }
    if (Date.now() > deadline) throw new Error(`${name}: still ${status ?? 'not listed'} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How many times the values fall. Progress counts only bytes storage acknowledged or in flight, so it falls
 * once per storage request that failed or was cancelled with bytes in flight, and never otherwise.
 */
export const falls = (values: number[]): number => values.filter((value, i) => i > 0 && value < values[i - 1]!).length;

/**
 * Whether a logged storage request failed for the page: a fault other than `delay` (which only holds it), or
 * a refusal from storage itself (e.g. 403 for a URL that expired while held).
 */
export const failedForPage = (request: { fault: string | undefined; storageStatus: number | undefined }): boolean =>
  (request.fault !== undefined && request.fault !== 'delay') || (request.storageStatus ?? 0) >= 300;
