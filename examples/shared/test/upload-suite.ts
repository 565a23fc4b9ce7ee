import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import {
  ENGINES,
  EXAMPLE_SELECTORS as SELECTORS,
  launchBrowser,
  openExamplePage,
  startThrottleProxy,
  type ExamplePage,
  type TestBrowser,
  type ThrottleProxy,
} from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';

const MiB = 1024 * 1024;
const FILES = { 'photo.jpg': 3 * MiB + 17, 'video.bin': 12 * MiB + 321 } as const;
type FileName = keyof typeof FILES;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** An example whose page has a file input, a drop zone and one row per upload (the Vue, Svelte, Solid and Angular pages). */
export interface UploadPageExample {
  /** The framework, as the suite's titles name it (e.g. `Vue`). */
  framework: string;
  /** The example's directory (`file:` URL ending in `/`); its built page is `dist/`. */
  root: URL;
}

/**
 * The browser suite of a Vite example's upload page, once per engine of `ENGINES` (chromium, Firefox,
 * WebKit): the page built with Vite, the shared Hono server with the upload handler, and the embedded
 * S3-compatible server on another origin behind a throttling proxy (which logs each request storage gets).
 * The page sends files from 8 MiB in 5 MiB parts (presigned multipart upload), smaller ones in one PUT.
 * Call it at the top level of the example's test file.
 */
export function describeUploadPage({ framework, root }: UploadPageExample): void {
  let example: RunningExample;
  let proxy: ThrottleProxy;
  let dir: string;
  const bytes = new Map<FileName, Buffer>();

  beforeAll(async () => {
    example = await startExample(fileURLToPath(new URL('dist', root)));
    proxy = await startThrottleProxy(example.storage.endpoint, Number.POSITIVE_INFINITY);
    example.setUploadHandler(createUploadHandler({ ...example.settings, endpoint: proxy.url, stsClient: example.storage.stsClient }));
    dir = await mkdtemp(join(tmpdir(), `upbeam-${framework.toLowerCase()}-e2e-`));
    for (const [name, size] of Object.entries(FILES) as [FileName, number][]) {
      bytes.set(name, randomBytes(size));
      await writeFile(join(dir, name), bytes.get(name)!);
    }
  });

  afterAll(async () => {
    await proxy?.close();
    await example?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The object key of the page's stored file, from the URL it shows (`{proxy}/{bucket}/{key}`). */
  async function storedKey(page: ExamplePage): Promise<string> {
    const url = await page.text(SELECTORS.objectUrl);
    const prefix = `${proxy.url}/${example.storage.bucket}/`;
    expect(url?.trim().startsWith(prefix), String(url)).toBe(true);
    return decodeURIComponent(url!.trim().slice(prefix.length));
  }

  /** Checks storage holds the same bytes as `name` under `key`. */
  async function expectStored(key: string, name: FileName): Promise<void> {
    const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
    const stored = await object.Body!.transformToByteArray();
    expect(stored.byteLength).toBe(FILES[name]);
    expect(sha256(stored)).toBe(sha256(bytes.get(name)!));
  }

  /** The requests storage got for `key` that carried a part (`partNumber=`), and those that did not. */
  function requestsFor(key: string, since: number) {
    const path = `/${example.storage.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const mine = proxy.requests.slice(since).filter((request) => request.path.split('?')[0] === path);
    return {
      parts: mine.filter((request) => request.method === 'PUT' && request.path.includes('partNumber=')),
      singlePuts: mine.filter((request) => request.method === 'PUT' && !request.path.includes('partNumber=')),
    };
  }

  describe.each(ENGINES)(`${framework} example page in %s, embedded storage`, (engine) => {
    let browser: TestBrowser;
    let page: ExamplePage | undefined;

    beforeAll(async () => {
      browser = await launchBrowser(engine);
    });
    afterAll(async () => {
      await page?.close().catch(() => {});
      await browser?.close();
    });

    async function open(): Promise<ExamplePage> {
      await page?.close();
      proxy.release();
      proxy.setBytesPerSecond(Number.POSITIVE_INFINITY);
      page = await openExamplePage(browser, example.origin);
      return page;
    }

    it('single PUT: a 3 MiB file climbs to 100, storage holds the same bytes', async () => {
      const page = await open();
      const since = proxy.requests.length;
      await page.setInputFile(SELECTORS.fileInput, join(dir, 'photo.jpg'));
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 60_000 }).toBe('done');
      expect(await page.text(SELECTORS.status)).toBe('Uploaded');
      const seen = await page.progressSeen();
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.at(-1)).toBe(100);
      const key = await storedKey(page);
      expect(key).toMatch(/photo\.jpg$/);
      expect(requestsFor(key, since)).toMatchObject({ parts: [], singlePuts: [expect.anything()] });
      await expectStored(key, 'photo.jpg');
    });

    it('presigned multipart: a 12 MiB file goes in 3 parts, storage holds the same bytes', async () => {
      const page = await open();
      const since = proxy.requests.length;
      await page.setInputFile(SELECTORS.fileInput, join(dir, 'video.bin'));
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 90_000 }).toBe('done');
      const seen = await page.progressSeen();
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(seen.at(-1)).toBe(100);
      const key = await storedKey(page);
      const { parts, singlePuts } = requestsFor(key, since);
      expect(singlePuts).toEqual([]);
      expect(new Set(parts.map((request) => new URLSearchParams(request.path.split('?')[1]).get('partNumber')))).toEqual(new Set(['1', '2', '3']));
      await expectStored(key, 'video.bin');
    });

    it('drop zone: a drag over it shows active, two dropped files and a pasted one are stored', async () => {
      const page = await open();
      const name = (index: number) => `dropped-${index}.txt`;
      // Synthesized DataTransfer events (a drag from the desktop cannot be made from a test); from there the
      // page's real code runs: the drop zone, the upload, the server, storage.
      await page.evaluate(() => {
        const fire = (target: EventTarget, type: string, files: File[], kind: 'drag' | 'paste') => {
          const transfer = new DataTransfer();
          for (const file of files) transfer.items.add(file);
          const init = { bubbles: true, cancelable: true };
          let event: Event = kind === 'drag' ? new DragEvent(type, { ...init, dataTransfer: transfer }) : new ClipboardEvent(type, { ...init, clipboardData: transfer });
          const property = kind === 'drag' ? 'dataTransfer' : 'clipboardData';
          if ((event as unknown as Record<string, unknown>)[property] !== transfer) {
            // An engine whose event constructor drops the transfer: the same event, the property set.
            event = new Event(type, init);
            Object.defineProperty(event, property, { value: transfer });
          }
          target.dispatchEvent(event);
        };
        const zone = document.querySelector('[data-testid="drop-zone"]')!;
        const files = [0, 1].map((index) => new File([`content of dropped-${index}`], `dropped-${index}.txt`, { type: 'text/plain' }));
        fire(zone, 'dragenter', files, 'drag');
        fire(zone, 'dragover', files, 'drag');
        (window as unknown as { activeWhileOver: boolean }).activeWhileOver = false;
        return new Promise<void>((resolve) =>
          requestAnimationFrame(() => {
            (window as unknown as { activeWhileOver: boolean }).activeWhileOver = zone.classList.contains('active');
            fire(zone, 'drop', files, 'drag');
            fire(document.body, 'paste', [new File(['content of dropped-2'], 'dropped-2.txt', { type: 'text/plain' })], 'paste');
            resolve();
          }),
        );
      }, undefined);
      expect(await page.evaluate(() => (window as unknown as { activeWhileOver: boolean }).activeWhileOver, undefined)).toBe(true);
      const rows = () =>
        page.evaluate(
          () =>
            Array.from(document.querySelectorAll('[data-testid="upload"]'), (row) => [
              row.querySelector('.name')?.textContent,
              row.getAttribute('data-status'),
              row.querySelector('[data-testid="object-url"]')?.textContent?.trim() ?? '',
            ]),
          undefined,
        );
      await expect.poll(async () => (await rows()).map(([, status]) => status), { timeout: 30_000 }).toEqual(['done', 'done', 'done']);
      expect(await page.attribute('[data-testid="drop-zone"]', 'class')).not.toContain('active');
      const shown = await rows();
      // The drop's files in its order; the paste's may land before or after them.
      expect(shown.map(([shownName]) => shownName).sort()).toEqual([name(0), name(1), name(2)]);
      for (const [shownName, , url] of shown) {
        const key = decodeURIComponent(url!.slice(`${proxy.url}/${example.storage.bucket}/`.length));
        const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
        expect(await object.Body!.transformToString()).toBe(`content of ${shownName!.replace('.txt', '')}`);
      }
    });

    it('cancel mid-upload shows Cancelled; retry uploads the file whole', async () => {
      const page = await open();
      // The proxy holds the parts' bytes until the cancel has landed: however slow the machine, the upload
      // cannot end before the click.
      proxy.hold();
      await page.setInputFile(SELECTORS.fileInput, join(dir, 'video.bin'));
      await expect.poll(async () => Number(await page.attribute(SELECTORS.upload, 'data-progress')), { timeout: 30_000 }).toBeGreaterThan(0);
      await page.click(SELECTORS.cancel);
      await expect.poll(() => page.text(SELECTORS.status)).toBe('Cancelled');
      expect(await page.attribute(SELECTORS.upload, 'data-status')).toBe('aborted');
      expect(await page.text(SELECTORS.error)).toBeNull();

      proxy.release();
      proxy.setBytesPerSecond(Number.POSITIVE_INFINITY);
      await page.click('[data-testid="upload"] [data-testid="retry"]');
      await expect.poll(() => page.attribute(SELECTORS.upload, 'data-status'), { timeout: 90_000 }).toBe('done');
      await expectStored(await storedKey(page), 'video.bin');
    });
  });
}
