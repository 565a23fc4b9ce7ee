import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { FaultProxy } from '@upbeam/fault-proxy';
import { ENGINES, launchBrowser, openExamplePage, type ExamplePage, type TestBrowser } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningExample } from './example-server';
import { startProxiedExample, type ProxiedExample } from './proxied-example';
import { SELECTORS } from './selectors';

// Many files at once through the example page, in every engine: a drop of 20 files (synthesized
// `DataTransfer`, dispatched as dragenter, dragover and drop), a pasted image, a dropped folder; storage
// behind the fault proxy, which holds each PUT 150 ms (a `delay` fault) so that uploads overlap and the
// proxy's log shows how many were in flight at once. An accessibility audit (axe-core) of the page in chromium.

const FILE_COUNT = 20;
const FILE_SIZE = 256 * 1024;
/** The example's `concurrency` (the hook's default). */
const CONCURRENCY = 3;
const HOLD_MS = 150;

let example: RunningExample;
let proxy: FaultProxy;
let proxied: ProxiedExample;
/** The object key the endpoint gave each `filename`. */
let keys: Map<string, string>;

beforeAll(async () => {
  proxied = await startProxiedExample({
    rate: 1,
    kinds: ['delay'],
    delayMs: HOLD_MS,
    eligible: (request) => request.operation === 'PutObject',
    maxFaultsPerRequest: 1,
  });
  ({ example, proxy, keys } = proxied);
});

afterAll(async () => {
  await proxied?.close();
});

/** The bytes of file `index` of a drop: the same formula in the page and here. */
function fileBytes(index: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + index * 7 + (i >> 8)) & 255;
  return bytes;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storedBytes(key: string): Promise<Uint8Array> {
  const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
  return object.Body!.transformToByteArray();
}

/** Most PUTs in flight at once at the proxy: from arrival to storage's answer. */
function mostPutsInFlight(since: number): number {
  const edges = proxy
    .requests()
    .filter((r) => r.seq > since && r.operation === 'PutObject' && r.answeredAt !== undefined)
    .flatMap((r) => [
      { at: r.at, step: 1 },
      { at: r.answeredAt!, step: -1 },
    ])
    // An answer at the same millisecond as an arrival ends first.
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const { step } of edges) {
    now += step;
    most = Math.max(most, now);
  }
  return most;
}

const lastSeq = () => proxy.requests().at(-1)?.seq ?? 0;

/** Counts the rows of each `data-status` on the page. */
const statuses = (page: ExamplePage) =>
  page.evaluate(() => Array.from(document.querySelectorAll('[data-upbeam="row"]'), (row) => row.getAttribute('data-status')), undefined);

describe.each(ENGINES)('many files in %s', (engine) => {
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
    page = await openExamplePage(browser, example.origin, SELECTORS.dropZone);
    return page;
  }

  it(`${FILE_COUNT} files dropped at once: at most ${CONCURRENCY} PUTs in flight, overall progress climbs to 100, every object identical`, async () => {
    const page = await open();
    const since = lastSeq();
    await page.evaluate(
      ({ count, size }) => {
        // Every overall progress value the page shows, in order.
        const seen: number[] = [];
        (window as unknown as { overallSeen: number[] }).overallSeen = seen;
        new MutationObserver(() => {
          const value = document.querySelector('[data-upbeam="overall"] [data-upbeam="progress"]')?.getAttribute('data-progress');
          if (value != null && Number(value) !== seen.at(-1)) seen.push(Number(value));
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-progress'] });

        const transfer = new DataTransfer();
        for (let index = 0; index < count; index += 1) {
          const bytes = new Uint8Array(size);
          for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + index * 7 + (i >> 8)) & 255;
          transfer.items.add(new File([bytes], `file-${index}.bin`, { type: 'application/octet-stream' }));
        }
        const zone = document.querySelector('[data-upbeam="dropzone"]')!;
        for (const type of ['dragenter', 'dragover', 'drop']) {
          let event: Event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
          if ((event as DragEvent).dataTransfer !== transfer) {
            // An engine whose DragEvent constructor drops `dataTransfer`: the same event, the property set.
            event = new Event(type, { bubbles: true, cancelable: true });
            Object.defineProperty(event, 'dataTransfer', { value: transfer });
          }
          zone.dispatchEvent(event);
        }
      },
      { count: FILE_COUNT, size: FILE_SIZE },
    );
    await expect.poll(() => statuses(page), { timeout: 60_000, interval: 250 }).toEqual(Array(FILE_COUNT).fill('done'));

    const most = mostPutsInFlight(since);
    expect(most).toBeLessThanOrEqual(CONCURRENCY);
    // Held 150 ms each, the PUTs overlap: the queue did run several at once.
    expect(most).toBeGreaterThanOrEqual(2);

    // The overall bar renders in the hook's transition, a render after the rows (which read their own file).
    const overallSeen = () => page.evaluate(() => (window as unknown as { overallSeen: number[] }).overallSeen, undefined);
    await expect.poll(async () => (await overallSeen()).at(-1)).toBe(100);
    const seen = await overallSeen();
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(seen.length).toBeGreaterThan(2);

    for (let index = 0; index < FILE_COUNT; index += 1) {
      const key = keys.get(`file-${index}.bin`)!;
      expect(key).toMatch(new RegExp(`^next-s3-uploads/[A-Za-z0-9_-]{21}/file-${index}\\.bin$`));
      expect(sha256(await storedBytes(key))).toBe(sha256(fileBytes(index, FILE_SIZE)));
    }
  });

  it('a pasted image is uploaded as it is', async () => {
    const page = await open();
    const pasted = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 8;
      canvas.height = 8;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#2457d6';
      context.fillRect(0, 0, 8, 8);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const file = new File([blob], 'pasted-image.png', { type: 'image/png' });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      let event: Event = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: transfer });
      if ((event as ClipboardEvent).clipboardData !== transfer) {
        event = new Event('paste', { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'clipboardData', { value: transfer });
      }
      document.body.dispatchEvent(event);
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    }, undefined);
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done']);
    expect(await page.text(`${SELECTORS.upload} ${SELECTORS.name}`)).toBe('pasted-image.png');
    // The preview of an image, drawn into the row's canvas.
    await expect.poll(() => page.attribute(SELECTORS.thumbnailImage, 'data-preview')).toBe('drawn');
    expect(sha256(await storedBytes(keys.get('pasted-image.png')!))).toBe(sha256(Uint8Array.from(pasted)));
  });

  it('a dropped folder keeps its relative paths in the object keys', async () => {
    const page = await open();
    // A drop of a real folder cannot be synthesized (the browser makes its FileSystemEntry tree only for a
    // drag from the desktop), so the page's DataTransferItem answers webkitGetAsEntry() with a stand-in
    // tree, named so: folder `trip` holding `2024/beach.txt` and `notes/day 1.txt`, real File objects
    // inside. Everything after (the walk, the paths, the upload, the server's key) is the real code.
    await page.evaluate(() => {
      const fileEntry = (fullPath: string) => {
        const name = fullPath.split('/').at(-1)!;
        const file = new File([`content of ${fullPath.slice(1)}`], name, { type: 'text/plain' });
        return { isFile: true, isDirectory: false, name, fullPath, file: (resolve: (f: File) => void) => resolve(file) };
      };
      const directoryEntry = (fullPath: string, children: unknown[]) => ({
        isFile: false,
        isDirectory: true,
        name: fullPath.split('/').at(-1)!,
        fullPath,
        createReader: () => {
          let read = false;
          return {
            readEntries: (resolve: (entries: unknown[]) => void) => {
              resolve(read ? [] : children);
              read = true;
            },
          };
        },
      });
      const standInTree = directoryEntry('/trip', [
        directoryEntry('/trip/2024', [fileEntry('/trip/2024/beach.txt')]),
        directoryEntry('/trip/notes', [fileEntry('/trip/notes/day 1.txt')]),
      ]);
      Object.defineProperty(DataTransferItem.prototype, 'webkitGetAsEntry', { configurable: true, value: () => standInTree });
      const transfer = new DataTransfer();
      transfer.items.add(new File([], 'trip'));
      const zone = document.querySelector('[data-upbeam="dropzone"]')!;
      let event: Event = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer });
      if ((event as DragEvent).dataTransfer !== transfer) {
        event = new Event('drop', { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: transfer });
      }
      zone.dispatchEvent(event);
    }, undefined);
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done', 'done']);
    expect(await page.text(`${SELECTORS.upload} ${SELECTORS.name}`)).toBe('trip/2024/beach.txt');
    expect(keys.get('trip/2024/beach.txt')).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/trip\/2024\/beach\.txt$/);
    expect(keys.get('trip/notes/day 1.txt')).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/trip\/notes\/day-1\.txt$/);
    expect(new TextDecoder().decode(await storedBytes(keys.get('trip/2024/beach.txt')!))).toBe('content of trip/2024/beach.txt');
  });

  it.runIf(engine === 'chromium')('the page passes an axe-core audit, empty and with uploads listed; the drop zone works by keyboard', async () => {
    const page = await open();
    const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate((code) => {
      // Indirect eval: axe-core's source defines `window.axe`.
      (0, eval)(code);
    }, source);
    const audit = () =>
      page.evaluate(async () => {
        const { violations } = await (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document);
        return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }, undefined);
    expect(await audit()).toEqual([]);
    // Keyboard: the drop zone takes focus, and Enter or Space opens the file dialog (its input's click()).
    const opened = await page.evaluate(() => {
      const zone = document.querySelector<HTMLElement>('[data-upbeam="dropzone"]')!;
      const input = document.querySelector<HTMLInputElement>('[data-upbeam="dropzone"] [data-upbeam="input"]')!;
      let clicks = 0;
      input.click = () => {
        clicks += 1;
      };
      zone.focus();
      const focused = document.activeElement === zone;
      for (const key of ['Enter', ' ']) zone.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      return { focused, clicks, role: zone.getAttribute('role'), tabIndex: zone.tabIndex };
    }, undefined);
    expect(opened).toEqual({ focused: true, clicks: 2, role: 'button', tabIndex: 0 });
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['a'], 'a.txt', { type: 'text/plain' }));
      transfer.items.add(new File(['b'], 'b.txt', { type: 'text/plain' }));
      const input = document.querySelector<HTMLInputElement>('[data-upbeam="dropzone"] [data-upbeam="input"]')!;
      input.files = transfer.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, undefined);
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done', 'done']);
    expect(await audit()).toEqual([]);
  });
});
