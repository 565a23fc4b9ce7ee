import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { startFaultProxy, type FaultProxy, type S3Request } from '@upbeam/fault-proxy';
import {
  ENGINES,
  launchBrowser,
  launchChromiumContext,
  openExamplePage,
  startThrottleProxy,
  type ExamplePage,
  type TestBrowser,
  type ThrottleProxy,
} from '@upbeam/test-browser';
import { createUploadHandler, defineRoutes } from '@upbeam/upload-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { takeComponentScreenshots } from '../scripts/component-screenshots';
import { announcements, recordAnnouncements } from './announcements';
import { audit } from './axe-audit';
import { startExample, type RunningExample } from './example-server';
import { sha256 } from './fault-upload';

// The ready-made components of `@upbeam/upload-react/components` (the example's components.html: one
// component per page) in every engine, uploading real files to s3rver through a throttling proxy (2 MiB/s,
// so that a test sees a 12 MiB upload running and can pause it) and the fault proxy (a single PUT fails
// when a test queues 500s for it). The file dialog is the one
// thing not driven: a test presses the drop zone's keys and sees its input's click(), then sets the file
// on the input as the dialog would.

const KiB = 1024;
const MiB = 1024 * KiB;
/** The page's `multipartThreshold` and `partSize`: 12 MiB goes in 3 parts. */
const BIG = 12 * MiB + 5;
/**
 * The browser's upload bandwidth (the throttling proxy in front of the fault proxy), bytes per second:
 * big.bin takes ~6 s, long enough to see it running and pause it. A request the browser drops is cut
 * off upstream at once (a held `delay` fault would forward it late, beside its resent copy).
 */
const BYTES_PER_SECOND = 2 * MiB;

let example: RunningExample;
let proxy: FaultProxy;
let throttle: ThrottleProxy;
let dir: string;
const files = new Map<string, Buffer>();
/** The endpoint's GETs (a route's rules) so far. */
let ruleReads = 0;

beforeAll(async () => {
  example = await startExample();
  proxy = await startFaultProxy({ target: example.storage.endpoint });
  throttle = await startThrottleProxy(proxy.url, BYTES_PER_SECOND);
  const settings = { ...example.settings, endpoint: throttle.url, stsClient: example.storage.stsClient };
  const plain = createUploadHandler(settings);
  // The route of the test of rules read from the endpoint (a handler with routes refuses a body naming none).
  const routed = createUploadHandler({ ...settings, routes: defineRoutes({ pictures: { allowedContentTypes: ['image/png'], maxFileSize: 100 * KiB } }) });
  example.setUploadHandler(async (request) => {
    if (request.method === 'GET') {
      ruleReads += 1;
      return routed(request);
    }
    const body = (await request.clone().json().catch(() => ({}))) as { route?: string };
    return body.route === undefined ? plain(request) : routed(request);
  });
  dir = await mkdtemp(join(tmpdir(), 'upbeam-components-'));
  for (const [name, size] of [
    ['notes.txt', 64 * KiB + 3],
    ['report.bin', 300 * KiB + 7],
    ['big.bin', BIG],
    ['brochure.pdf', 10 * KiB],
    ['tiny.png', 10 * KiB],
    ['poster.png', 200 * KiB],
  ] as const) {
    const bytes = randomBytes(size);
    files.set(name, bytes);
    await writeFile(join(dir, name), bytes);
  }
});

afterAll(async () => {
  await throttle?.close();
  await proxy?.close();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function stored(key: string): Promise<Uint8Array> {
  const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
  return object.Body!.transformToByteArray();
}

const ROW = '[data-upbeam="row"]';
/** Files of the long list test: past the 100 from which `UploadList` mounts only the rows in view. */
const LONG_LIST = 500;
const INPUT = '[data-upbeam="input"]';
const isPut = (request: S3Request) => request.operation === 'PutObject';

/** `data-status` of every row, in order. */
const statuses = (page: ExamplePage) =>
  page.evaluate((row) => Array.from(document.querySelectorAll(row), (element) => element.getAttribute('data-status')), ROW);

/** The lines the page's `onUploadComplete` and `onError` wrote: `stored <key>`, `failed <message>`. */
const outcomes = (page: ExamplePage) =>
  page.evaluate(() => Array.from(document.querySelectorAll('[data-testid="outcomes"] li'), (li) => li.textContent ?? ''), undefined);

/** The object key of each `stored <key>` outcome. */
const storedKeys = async (page: ExamplePage) => (await outcomes(page)).filter((line) => line.startsWith('stored ')).map((line) => line.slice(7));

/** The accessible name of the focused element (its aria-label, or its text). */
const focused = (page: ExamplePage) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('aria-label') ?? element?.getAttribute('data-upbeam') ?? element?.textContent ?? '';
  }, undefined);

/** Presses Tab until the element named `name` has the focus (at most 12 times). */
async function tabTo(page: ExamplePage, name: string): Promise<void> {
  for (let presses = 0; presses < 12; presses += 1) {
    if ((await focused(page)) === name) return;
    await page.press('Tab');
  }
  throw new Error(`${page.engine}: Tab never reached "${name}" (focus on "${await focused(page)}")`);
}

/**
 * Clicks the element: scrolled into view first, as a user scrolls to it (a row out of view is not rendered,
 * `content-visibility: auto`, and WebKit's WebDriver finds it not interactable until it is).
 */
async function press(page: ExamplePage, selector: string): Promise<void> {
  await page.evaluate((s) => document.querySelector(s)?.scrollIntoView({ block: 'center' }), selector);
  await page.click(selector);
}

/** Drops (or with `paste`, pastes on the page) files made in the page: `[name, type, size]`. */
async function dropFiles(page: ExamplePage, list: [string, string, number][], how: 'drop' | 'paste' | 'dragenter'): Promise<void> {
  await page.evaluate(
    async ({ list, how }) => {
      const transfer = new DataTransfer();
      for (const [name, type, size] of list) {
        let blob: Blob = new Blob([new Uint8Array(size).fill(7)], { type });
        if (type === 'image/png') {
          const canvas = document.createElement('canvas');
          canvas.width = 16;
          canvas.height = 16;
          const context = canvas.getContext('2d')!;
          context.fillStyle = '#0ea5e9';
          context.fillRect(0, 0, 16, 16);
          blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
        }
        transfer.items.add(new File([blob], name, { type }));
      }
      const fire = (target: EventTarget, type: string, Kind: typeof DragEvent | typeof ClipboardEvent, field: 'dataTransfer' | 'clipboardData') => {
        let event: Event = new Kind(type, { bubbles: true, cancelable: true, [field]: transfer });
        if ((event as unknown as Record<string, unknown>)[field] !== transfer) {
          // An engine whose constructor drops the transfer: the same event, the property set.
          event = new Event(type, { bubbles: true, cancelable: true });
          Object.defineProperty(event, field, { value: transfer });
        }
        target.dispatchEvent(event);
      };
      const zone = document.querySelector('[data-upbeam="dropzone"]')!;
      if (how === 'paste') fire(document.body, 'paste', ClipboardEvent, 'clipboardData');
      else if (how === 'dragenter') fire(zone, 'dragenter', DragEvent, 'dataTransfer');
      else for (const type of ['dragenter', 'dragover', 'drop']) fire(zone, type, DragEvent, 'dataTransfer');
    },
    { list, how },
  );
}

describe.each(ENGINES)('upload components in %s', (engine) => {
  let browser: TestBrowser;
  let page: ExamplePage | undefined;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterEach(() => {
    proxy.reset();
    throttle.release();
  });
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  async function open(query: string): Promise<ExamplePage> {
    await page?.close();
    page = await openExamplePage(browser, `${example.origin}/components.html?${query}`, '[data-upbeam="root"]');
    return page;
  }

  it('Uploader: dropped files are stored, progress announced by tenths, onUploadComplete called once each', async () => {
    const page = await open('component=uploader&theme=light');
    await recordAnnouncements(page);
    await dropFiles(page, [['sunset.png', 'image/png', 0], ['data.bin', 'application/octet-stream', 200 * KiB]], 'drop');
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done', 'done']);
    // An image's row shows a canvas (its preview: previews.e2e.test.ts).
    expect(await page.attribute(`${ROW} canvas[data-upbeam="thumbnail"]`, 'aria-hidden')).toBe('true');
    expect(await page.text(`${ROW} [data-upbeam="name"]`)).toBe('sunset.png');
    // The rows read their own file; the summary renders in the hook's transition, a render later.
    await expect.poll(() => page.text('[data-upbeam="summary"]')).toMatch(/^2 of 2 files uploaded · 100%/);
    const keys = await storedKeys(page);
    expect(keys).toHaveLength(2);
    expect((await stored(keys.find((key) => key.endsWith('data.bin'))!)).length).toBe(200 * KiB);
    const announced = await announcements(page);
    expect(announced.at(-1)).toBe('2 of 2 files uploaded.');
    for (const line of announced.slice(0, -1)) expect(line).toMatch(/^Uploading: (\d?0|100)%, \d of 2 files done\.$/);
  });

  it('Uploader by keyboard only: Tab to the drop zone, Enter and Space open the dialog; pause, resume and cancel a multipart upload with keys', async () => {
    const page = await open('component=uploader&theme=light');
    // The OS file dialog is not driven: the input's click() (what opens it) is counted instead.
    await page.evaluate((input) => {
      const element = document.querySelector<HTMLInputElement>(input)!;
      (window as unknown as { dialogs: number }).dialogs = 0;
      element.click = () => void ((window as unknown as { dialogs: number }).dialogs += 1);
    }, INPUT);
    await tabTo(page, 'dropzone');
    await page.press('Enter');
    await page.press('Space');
    expect(await page.evaluate(() => (window as unknown as { dialogs: number }).dialogs, undefined)).toBe(2);
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle, undefined)).toBe('solid');
    // The throttling proxy holds the parts' bytes until Cancel has landed: the upload cannot end before the keys.
    throttle.hold();
    await page.setInputFile(INPUT, join(dir, 'big.bin'));
    await expect.poll(() => statuses(page)).toEqual(['uploading']);
    await tabTo(page, 'Pause big.bin');
    await page.press('Enter');
    await expect.poll(() => statuses(page)).toEqual(['paused']);
    // The same button, now Resume, keeps the focus.
    expect(await focused(page)).toBe('Resume big.bin');
    await page.press('Space');
    await expect.poll(() => statuses(page)).toEqual(['uploading']);
    await tabTo(page, 'Cancel big.bin');
    await page.press('Enter');
    await expect.poll(() => statuses(page)).toEqual(['aborted']);
    throttle.release();
    expect(await page.text(`${ROW} [data-upbeam="status"]`)).toBe('Cancelled');
    // Calm: no error shown, no bar, no Cancel; Retry and Remove name the file.
    expect(await page.evaluate((row) => document.querySelector(`${row} [data-upbeam="error"], ${row} progress, ${row} [data-action="cancel"]`), ROW)).toBeNull();
    expect(await page.attribute(`${ROW} [data-action="retry"]`, 'aria-label')).toBe('Retry big.bin');
    await expect.poll(() => page.text('[data-upbeam="summary"]')).toMatch(/^0 of 1 file uploaded · 1 cancelled/);
  });

  it('Uploader: a multipart upload paused and resumed is stored whole', async () => {
    const page = await open('component=uploader');
    // The throttling proxy holds the parts' bytes until Pause has landed: the upload cannot end before the click.
    throttle.hold();
    await page.setInputFile(INPUT, join(dir, 'big.bin'));
    await expect.poll(() => statuses(page)).toEqual(['uploading']);
    // Leaving the page mid-upload asks first (beforeunload cancelled); not once the files have ended.
    const leaveAsks = () => page.evaluate(() => !window.dispatchEvent(new Event('beforeunload', { cancelable: true })), undefined);
    // The warning follows the hook's summary, which renders in a transition, a render after the rows.
    await expect.poll(leaveAsks).toBe(true);
    await press(page, '[data-action="pause"]');
    await expect.poll(() => statuses(page)).toEqual(['paused']);
    throttle.release();
    await press(page, '[data-action="resume"]');
    await expect.poll(() => statuses(page), { timeout: 60_000 }).toEqual(['done']);
    await expect.poll(leaveAsks).toBe(false);
    const [key] = await storedKeys(page);
    expect(sha256(await stored(key!))).toBe(sha256(files.get('big.bin')!));
  });

  it('Uploader: a failed upload shows its error in words and no full bar; Retry stores it; onError called', async () => {
    const page = await open('component=uploader');
    for (let i = 0; i < 3; i += 1) proxy.inject('error-500', isPut);
    await page.setInputFile(INPUT, join(dir, 'report.bin'));
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['error']);
    expect(await page.text(`${ROW} [data-upbeam="error"]`)).toMatch(/\w+/);
    expect(await page.evaluate((row) => document.querySelector(`${row} progress, ${row} [data-action="cancel"]`), ROW)).toBeNull();
    expect((await outcomes(page)).filter((line) => line.startsWith('failed '))).toHaveLength(1);
    await expect.poll(() => page.text('[data-upbeam="summary"]')).toMatch(/^0 of 1 file uploaded · 1 failed/);
    await press(page, '[data-action="retry"]');
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done']);
    // `onUploadComplete`'s line is the page's own render of the callback: it may come a frame after the row's status.
    await expect.poll(() => storedKeys(page)).toHaveLength(1);
    const [key] = await storedKeys(page);
    expect(sha256(await stored(key!))).toBe(sha256(files.get('report.bin')!));
  });

  it('UploadDropzone with UploadList: pasted and dropped files stored; a refused type shows its reason', async () => {
    const page = await open('component=dropzone');
    await dropFiles(page, [['pasted.png', 'image/png', 0]], 'paste');
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done']);
    await dropFiles(page, [['readme.txt', 'text/plain', 5 * KiB], ['brochure.pdf', 'application/pdf', 1 * KiB]], 'drop');
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['done', 'done']);
    expect(await page.text('[data-upbeam="rejections"]')).toBe('brochure.pdf: this type of file is not accepted (image/*,.txt).');
    expect(await page.attribute('[data-upbeam="rejections"]', 'aria-label')).toBe('Not uploaded');
    expect(await page.evaluate(() => document.querySelector('[data-upbeam="rejections"]')!.closest('[role="alert"]') !== null, undefined)).toBe(true);
  });

  it('UploadButton: picked files upload with progress in the button; a refused type shows its reason', async () => {
    const page = await open('component=button');
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { buttonTexts: string[] }).buttonTexts = seen;
      const button = document.querySelector('[data-upbeam="button"]')!;
      new MutationObserver(() => seen.push(button.textContent ?? '')).observe(button, { subtree: true, childList: true, characterData: true });
    }, undefined);
    await recordAnnouncements(page);
    await page.setInputFile(INPUT, join(dir, 'big.bin'));
    await expect.poll(() => storedKeys(page), { timeout: 60_000 }).toHaveLength(1);
    // Announced politely by tenths, as the Uploader does.
    await expect.poll(() => announcements(page).then((seen) => seen.at(-1))).toBe('1 of 1 file uploaded.');
    const announced = await announcements(page);
    for (const line of announced.slice(0, -1)) expect(line).toMatch(/^Uploading: (\d?0|100)%, 0 of 1 file done\.$/);
    const texts = await page.evaluate(() => (window as unknown as { buttonTexts: string[] }).buttonTexts, undefined);
    expect(texts.some((text) => /^Uploading… \d+%$/.test(text))).toBe(true);
    await expect.poll(() => page.text('[data-upbeam="button"]')).toBe('Upload files');
    const [key] = await storedKeys(page);
    expect(sha256(await stored(key!))).toBe(sha256(files.get('big.bin')!));
    await page.setInputFile(INPUT, join(dir, 'brochure.pdf'));
    await expect.poll(() => page.text('[data-upbeam="rejections"]')).toBe('brochure.pdf: this type of file is not accepted (image/*,.txt,.bin).');
  });

  it("UploadButton with a route: the route's rules, read once from the endpoint, turn away a wrong type and a file too large", async () => {
    const reads = ruleReads;
    const page = await open('component=button&route=pictures');
    await expect.poll(() => ruleReads - reads).toBe(1);
    await page.setInputFile(INPUT, join(dir, 'brochure.pdf'));
    await expect.poll(() => page.text('[data-upbeam="rejections"]')).toBe('brochure.pdf: this type of file is not accepted (image/png).');
    await page.setInputFile(INPUT, join(dir, 'poster.png'));
    await expect.poll(() => page.text('[data-upbeam="rejections"]')).toBe('poster.png is too large (205 kB).');
    await page.setInputFile(INPUT, join(dir, 'tiny.png'));
    await expect.poll(() => storedKeys(page), { timeout: 30_000 }).toHaveLength(1);
    expect(ruleReads - reads).toBe(1);
  });

  it('UploadList of 500 files mounts only the rows in view; Tab walks down the rows, each scrolled into view; axe finds no violation', async () => {
    const page = await open('component=uploader&theme=light');
    const many = Array.from({ length: LONG_LIST }, (_, index): [string, string, number] => [`many-${index}.txt`, 'text/plain', 16]);
    await dropFiles(page, many, 'drop');
    await expect.poll(() => page.text('[data-upbeam="summary"]'), { timeout: 120_000 }).toMatch(new RegExp(`^${LONG_LIST} of ${LONG_LIST} files uploaded`));
    const rows = () =>
      page.evaluate(
        (row) => Array.from(document.querySelectorAll(row), (element) => [Number(element.getAttribute('aria-posinset')), Number(element.getAttribute('aria-setsize'))]),
        ROW,
      );
    const mounted = await rows();
    expect(mounted.length).toBeGreaterThan(2);
    expect(mounted.length).toBeLessThan(60);
    expect(mounted.map(([position]) => position)).toEqual(mounted.map((_, index) => index + 1));
    expect(new Set(mounted.map(([, size]) => size))).toEqual(new Set([LONG_LIST]));
    expect(await audit(page)).toEqual([]);
    // From the first row's button, Tab goes to the next row's, down past the first screenful: each focused
    // row is mounted in time, in its place, and scrolled into view (within a few frames: WebKit draws the
    // rows measured on the way a frame later).
    const focusedRow = () =>
      page.evaluate(() => {
        const row = document.activeElement?.closest('[data-upbeam="row"]');
        const box = row?.getBoundingClientRect();
        return { position: Number(row?.getAttribute('aria-posinset')), inView: !!box && box.top >= -1 && box.bottom <= innerHeight + 1 };
      }, undefined);
    await page.evaluate((row) => document.querySelector<HTMLElement>(`${row} [data-action="remove"]`)!.focus(), ROW);
    for (let step = 2; step <= 30; step += 1) {
      await page.press('Tab');
      await expect.poll(focusedRow, { timeout: 5_000 }).toEqual({ position: step, inView: true });
    }
    expect((await rows()).length).toBeLessThan(60);
  });

  it.each(['light', 'dark'] as const)('axe-core finds no violation in any state, %s theme: empty, dragging, uploading, paused, failed, done', async (theme) => {
    const page = await open(`component=uploader&theme=${theme}`);
    const states: Record<string, string[]> = {};
    states.empty = await audit(page);
    await dropFiles(page, [['x.png', 'image/png', 0]], 'dragenter');
    await expect.poll(() => page.attribute('[data-upbeam="dropzone"]', 'data-state')).toBe('dragging');
    states.dragging = await audit(page);
    await page.evaluate(() => {
      const zone = document.querySelector('[data-upbeam="dropzone"]')!;
      zone.dispatchEvent(new Event('dragleave', { bubbles: true }));
    }, undefined);
    // The throttling proxy holds the parts' bytes until Cancel has landed: the upload cannot end before the clicks.
    throttle.hold();
    await page.setInputFile(INPUT, join(dir, 'big.bin'));
    await expect.poll(() => statuses(page)).toEqual(['uploading']);
    states.uploading = await audit(page);
    await press(page, '[data-action="pause"]');
    await expect.poll(() => statuses(page)).toEqual(['paused']);
    states.paused = await audit(page);
    await press(page, '[data-action="cancel"]');
    throttle.release();
    for (let i = 0; i < 3; i += 1) proxy.inject('error-500', isPut);
    await page.setInputFile(INPUT, join(dir, 'notes.txt'));
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['aborted', 'error']);
    states.failed = await audit(page);
    await press(page, `${ROW}[data-status="error"] [data-action="retry"]`);
    await expect.poll(() => statuses(page), { timeout: 30_000 }).toEqual(['aborted', 'done']);
    states.done = await audit(page);
    expect(states).toEqual({ empty: [], dragging: [], uploading: [], paused: [], failed: [], done: [] });
  });
});

describe('screenshots of the components (pnpm run screenshots)', () => {
  it('render the light and the dark theme: taken again here, a light picture and a dark one of the same width', async () => {
    const out = await mkdtemp(join(tmpdir(), 'upbeam-screenshots-'));
    const chromium = await launchChromiumContext();
    try {
      const paths = await takeComponentScreenshots(out);
      expect(paths.map((path) => path.slice(out.length + 1))).toEqual(['uploader-light.png', 'uploader-dark.png']);
      const page = await chromium.context.newPage();
      // Mean luminance (0 black, 1 white) and size of each picture, decoded by the browser.
      const measured = [];
      for (const path of paths) {
        const url = `data:image/png;base64,${(await readFile(path)).toString('base64')}`;
        measured.push(
          await page.evaluate(async (src) => {
            const image = new Image();
            image.src = src;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = image.width;
            canvas.height = image.height;
            const context = canvas.getContext('2d')!;
            context.drawImage(image, 0, 0);
            const { data } = context.getImageData(0, 0, image.width, image.height);
            let sum = 0;
            for (let i = 0; i < data.length; i += 4) sum += (0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!) / 255;
            return { width: image.width, height: image.height, luminance: sum / (data.length / 4) };
          }, url),
        );
      }
      const [light, dark] = measured;
      expect(light!.width).toBe(760);
      expect(dark!.width).toBe(760);
      expect(light!.height).toBeGreaterThan(600);
      expect(light!.luminance).toBeGreaterThan(0.8);
      expect(dark!.luminance).toBeLessThan(0.25);
    } finally {
      await chromium.close();
      await rm(out, { recursive: true, force: true });
    }
  });
});
