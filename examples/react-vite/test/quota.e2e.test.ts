import { ENGINES, launchBrowser, openExamplePage, startThrottleProxy, type ExamplePage, type TestBrowser, type ThrottleProxy } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';

// A user over quota, in every engine: `<Uploader>` (the example's components page) against the real handler
// with a quota of one file an hour per user (the example's sign-in cookie is the subject). Two files dropped at
// once: one is stored, the other refused before anything reaches storage, its row saying why in the server's
// words. Storage sits behind the throttling proxy (at a rate nothing here waits for), whose log counts what
// reached it.

const ROW = '[data-upbeam="row"]';
const USER_COOKIE = /(?:^|;\s*)upbeam-example-user=([^;]+)/;

let example: RunningExample;
let storage: ThrottleProxy;

beforeAll(async () => {
  example = await startExample();
  storage = await startThrottleProxy(example.storage.endpoint, 64 * 1024 * 1024);
  const limited = createUploadHandler({
    ...example.settings,
    endpoint: storage.url,
    limits: { files: { max: 1, windowSeconds: 3600 } },
    onBeforeUpload: ({ request }) => {
      const user = USER_COOKIE.exec(request.headers.get('cookie') ?? '')?.[1];
      if (!user) throw new Error('the page signs in first');
      return { subject: user };
    },
  });
  example.setUploadHandler(limited);
});

afterAll(async () => {
  await storage?.close();
  await example?.close();
});

/** Drops files made in the page, `[name, text]`, on the drop zone. */
const dropFiles = (page: ExamplePage, list: [string, string][]) =>
  page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const [name, text] of list) transfer.items.add(new File([text], name, { type: 'text/plain' }));
    const zone = document.querySelector('[data-upbeam="dropzone"]')!;
    for (const type of ['dragenter', 'dragover', 'drop']) {
      let event: Event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
      if ((event as DragEvent).dataTransfer !== transfer) {
        // An engine whose constructor drops the transfer: the same event, the property set.
        event = new Event(type, { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: transfer });
      }
      zone.dispatchEvent(event);
    }
  }, list);

/** Each row's name, status and error text, in order. */
const rows = (page: ExamplePage) =>
  page.evaluate(
    (row) =>
      Array.from(document.querySelectorAll(row), (element) => ({
        name: element.getAttribute('data-name'),
        status: element.getAttribute('data-status'),
        error: element.querySelector('[data-upbeam="error"]')?.textContent ?? null,
      })),
    ROW,
  );

describe.each(ENGINES)('a user over quota in %s', (engine) => {
  let browser: TestBrowser;
  let page: ExamplePage | undefined;

  beforeAll(async () => {
    // A new browser: a new example user, with a quota of its own.
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  it('sees the refusal in words in <Uploader>, and nothing of the refused file is sent to storage', async () => {
    page = await openExamplePage(browser, `${example.origin}/components.html?component=uploader`, '[data-upbeam="root"]');
    const before = storage.requests.length;
    await dropFiles(page, [
      ['one.txt', 'the first file'],
      ['two.txt', 'the second file'],
    ]);
    await expect.poll(async () => (await rows(page!)).map(({ status }) => status).sort(), { timeout: 30_000 }).toEqual(['done', 'error']);
    const [stored, refused] = (await rows(page)).sort((a, b) => (a.status === 'done' ? -1 : b.status === 'done' ? 1 : 0));
    expect(refused!.error).toMatch(/^Upload quota reached: at most 1 file per hour\. Try again in .+\.$/);
    // As any failure: counted in the summary and in the polite live region's closing sentence.
    await expect.poll(() => page!.text('[data-upbeam="summary"]')).toMatch(/^1 of 2 files uploaded · 1 failed/);
    expect(await page.text('[data-upbeam="announcement"]')).toBe('1 of 2 files uploaded, 1 failed.');
    // Storage saw the stored file's requests only: none names the refused one.
    const sent = storage.requests.slice(before).map(({ method, path }) => `${method} ${decodeURIComponent(path)}`);
    expect(sent.filter((line) => line.startsWith('PUT ')).length).toBe(1);
    expect(sent.some((line) => line.includes(stored!.name!))).toBe(true);
    expect(sent.some((line) => line.includes(refused!.name!))).toBe(false);
  });
});
