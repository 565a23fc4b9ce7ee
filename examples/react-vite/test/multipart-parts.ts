import type { Page } from 'playwright-core';

/**
 * Counts, at the browser, the UploadPart requests a page sends (a PUT whose URL names `partNumber`) and the
 * ones storage answered 2xx, by part number, with the time each was stored.
 */
export interface PartLog {
  /** Part numbers sent, in order (a retried part appears again). */
  sent: number[];
  /** Part numbers stored (2xx) and when (`Date.now()`). */
  stored: Map<number, number>;
  /** Stops counting. */
  stop(): void;
}

const partNumberOf = (url: string): number | undefined => {
  const value = new URL(url).searchParams.get('partNumber');
  return value === null ? undefined : Number(value);
};

export function logParts(page: Page): PartLog {
  const log: PartLog = { sent: [], stored: new Map(), stop: () => {} };
  const onRequest = (request: { method(): string; url(): string }) => {
    const partNumber = partNumberOf(request.url());
    if (request.method() === 'PUT' && partNumber !== undefined) log.sent.push(partNumber);
  };
  const onFinished = async (request: { method(): string; url(): string; response(): Promise<{ status(): number } | null> }) => {
    const partNumber = partNumberOf(request.url());
    if (request.method() !== 'PUT' || partNumber === undefined) return;
    const status = (await request.response())?.status() ?? 0;
    if (status >= 200 && status < 300) log.stored.set(partNumber, Date.now());
  };
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  log.stop = () => {
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
  };
  return log;
}

/** Waits until `check()` holds, polling every 50 ms, at most `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
