import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { FaultProxy, LoggedRequest } from '@upbeam/fault-proxy';
import { ENGINES, launchBrowser, openExamplePage, type Engine, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningExample } from './example-server';
import { startProxiedExample, type ProxiedExample } from './proxied-example';
import { SELECTORS } from './selectors';

// A queue that survives (issue 23): the example page with `persist` (`?persist`), in every engine, storage
// (s3rver) behind the fault proxy, which holds requests (a `delay` fault) so that the page can be reloaded, or
// closed, halfway, and counts what is sent. 20 small files (single PUTs) and one of 45 MiB
// (multipart from 8 MiB: 10 parts of 5 MiB) are dropped (the proxy holds each PUT 0.5 s and each part 2.5 s,
// so that small files end while the large one is still sending); when at least 5 small files are done and the large one
// has parts stored and parts missing, the page goes (reload, or closed and a new page opened in the same
// profile); the new page, with no user action, restores the queue and completes every file; no file done and
// no part stored before is sent again; every object is byte-identical. Two tabs: each upload runs in one tab.

const MiB = 1024 * 1024;
const SMALL_COUNT = 20;
const SMALL_SIZE = 256 * 1024;
/** 9 parts of 5 MiB and a last one of 123 bytes. */
const LARGE_SIZE = 45 * MiB + 123;
const LARGE_PARTS = 10;
const LARGE_NAME = 'large.bin';
/** How long the proxy holds a PUT of a small file, and a part of the large one, in milliseconds. */
const PUT_HOLD_MS = 500;
const PART_HOLD_MS = 2500;
const PAGE_QUERY = `?persist&multipartThreshold=${8 * MiB}`;

let example: RunningExample;
let proxy: FaultProxy;
let proxied: ProxiedExample;
/** The object key the endpoint gave each `filename`, the last one asked for (a file sent again gets a new key). */
let keys: Map<string, string>;

beforeAll(async () => {
  proxied = await startProxiedExample({
    rate: 1,
    // Every PUT held PUT_HOLD_MS; parts only by the delays `holdParts` queues.
    kinds: (request) => (request.operation === 'PutObject' ? ['delay'] : []),
    delayMs: PUT_HOLD_MS,
    eligible: (request) => request.operation === 'PutObject' || request.operation === 'UploadPart',
    maxFaultsPerRequest: 1,
  });
  ({ example, proxy, keys } = proxied);
});

afterAll(async () => {
  await proxied?.close();
});

const smallName = (index: number) => `file-${index}.bin`;
const ALL_NAMES = [LARGE_NAME, ...Array.from({ length: SMALL_COUNT }, (_, index) => smallName(index))];

/** The bytes of a file: a cheap formula, the same in the page (see `dropFiles`) and here. */
function fileBytes(seed: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 255;
  return bytes;
}
const expectedBytes = (name: string) => (name === LARGE_NAME ? fileBytes(99, LARGE_SIZE) : fileBytes(Number(name.slice(5, -4)), SMALL_SIZE));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storedBytes(key: string): Promise<Uint8Array> {
  const object = await example.s3.send(new GetObjectCommand({ Bucket: example.storage.bucket, Key: key }));
  return object.Body!.transformToByteArray();
}

/** Drops the large file then the 20 small ones on the page (a synthesized `DataTransfer`, as queue.e2e does). */
const dropFiles = (page: TestPage): Promise<void> => dropNamed(page, ALL_NAMES);

/** Drops the files of these names ({@link ALL_NAMES}), in this order. */
function dropNamed(page: TestPage, names: readonly string[]): Promise<void> {
  return page.evaluate(
    ({ files }) => {
      const bytesOf = (seed: number, size: number) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 255;
        return bytes;
      };
      const transfer = new DataTransfer();
      for (const { name, seed, size } of files) {
        transfer.items.add(new File([bytesOf(seed, size)], name, { type: 'application/octet-stream' }));
      }
      const zone = document.querySelector('[data-upbeam="dropzone"]')!;
      for (const type of ['dragenter', 'dragover', 'drop']) {
        let event: Event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer });
        if ((event as DragEvent).dataTransfer !== transfer) {
          event = new Event(type, { bubbles: true, cancelable: true });
          Object.defineProperty(event, 'dataTransfer', { value: transfer });
        }
        zone.dispatchEvent(event);
      }
    },
    {
      files: names.map((name) =>
        name === LARGE_NAME ? { name, seed: 99, size: LARGE_SIZE } : { name, seed: Number(name.slice(5, -4)), size: SMALL_SIZE },
      ),
    },
  );
}

interface Row {
  name: string;
  status: string;
  restored: boolean;
  persistence: string | null;
}

const rows = (page: TestPage): Promise<Row[]> =>
  page.evaluate(
    () =>
      Array.from(document.querySelectorAll('[data-upbeam="row"]'), (row) => ({
        name: row.getAttribute('data-name') ?? '',
        status: row.getAttribute('data-status') ?? '',
        restored: row.getAttribute('data-restored') === 'true',
        persistence: row.getAttribute('data-persistence'),
      })),
    undefined,
  );

/** Holds the next parts (those of one large file, and a few retries) {@link PART_HOLD_MS} each. */
function holdParts(): void {
  for (let i = 0; i < LARGE_PARTS + 4; i += 1) proxy.inject({ kind: 'delay', delayMs: PART_HOLD_MS }, (request) => request.operation === 'UploadPart');
}

const lastSeq = () => proxy.requests().at(-1)?.seq ?? 0;
const after = (seq: number) => proxy.requests().filter((r) => r.seq > seq);
const nameOf = (request: LoggedRequest) => decodeURIComponent(request.path.split('/').at(-1) ?? '');
const partOf = (request: Pick<LoggedRequest, 'identity'>) => /partNumber=(\d+)/.exec(request.identity)?.[1];
const stored = (request: LoggedRequest) => request.storageStatus === 200 && request.answeredAt !== undefined;

/**
 * Polls `check` every 100 ms until it holds; past `timeoutMs`, throws naming `what` and, when given, what
 * `state` reads then (e.g. the page's rows), so that a failure in CI says where the page was.
 */
async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string, state?: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const seen = state ? `; seen: ${JSON.stringify(await state().catch((error: unknown) => String(error)))}` : '';
      throw new Error(`timed out waiting for ${what}${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What was stored before the page went: files the page showed done, parts storage answered. */
interface BeforeLeaving {
  since: number;
  doneNames: string[];
  /** Identity (`uploadId`, `partNumber`) of the large file's parts storage answered, well before the page went. */
  storedParts: string[];
  leftAt: number;
}

/**
 * Drops the files and waits until at least 5 small files are done and the large file has parts stored and
 * parts missing; then `leave` (a reload, or a close) runs.
 */
async function dropAndLeaveHalfway(page: TestPage, leave: () => Promise<void>): Promise<BeforeLeaving> {
  const since = lastSeq();
  holdParts();
  await dropFiles(page);
  const largeParts = () => after(since).filter((r) => r.operation === 'UploadPart' && stored(r));
  await waitFor(
    async () => (await rows(page)).filter((row) => row.status === 'done').length >= 5 && largeParts().length >= 4,
    60_000,
    '5 files done and 4 parts stored',
  );
  const now = await rows(page);
  expect(now.filter((row) => row.name !== LARGE_NAME && row.status === 'done').length).toBeGreaterThanOrEqual(5);
  expect(now.find((row) => row.name === LARGE_NAME)?.status).toBe('uploading');
  // What was kept: every file the page holds, in this engine (see docs/guide/persistence.md).
  expect(now.filter((row) => row.status !== 'done').every((row) => row.persistence === 'kept'), JSON.stringify(now)).toBe(true);
  const doneNames = now.filter((row) => row.status === 'done').map((row) => row.name);
  // The store forgets a done file a few milliseconds after it shows done, and the journal keeps a part a few
  // after storage answered it: leave a moment after reading (the next parts are held 2.5 s).
  await new Promise((resolve) => setTimeout(resolve, 800));
  const leftAt = Date.now();
  const storedParts = largeParts()
    .filter((r) => r.answeredAt! < leftAt - 500)
    .map((r) => r.identity);
  expect(storedParts.length).toBeGreaterThanOrEqual(1);
  expect(largeParts().length).toBeLessThan(LARGE_PARTS);
  await leave();
  return { since, doneNames, storedParts, leftAt };
}

/** After the page came back: every file completes, nothing stored before is sent again, objects identical. */
async function expectCompletedWithoutResending(page: TestPage, before: BeforeLeaving): Promise<void> {
  // The restored rows: every file not done before (the large one among them), each marked restored.
  await waitFor(async () => (await rows(page)).length > 0, 15_000, 'the restored queue');
  const restored = await rows(page);
  expect(restored.every((row) => row.restored), JSON.stringify(restored)).toBe(true);
  expect(restored.map((row) => row.name)).toContain(LARGE_NAME);
  for (const name of before.doneNames) expect(restored.map((row) => row.name)).not.toContain(name);
  await waitFor(async () => (await rows(page)).every((row) => row.status === 'done'), 90_000, 'every restored file done');

  const sentAfter = after(before.since).filter((r) => r.at > before.leftAt);
  for (const name of before.doneNames) {
    expect(sentAfter.filter((r) => r.operation === 'PutObject' && nameOf(r) === name), `${name} sent again`).toEqual([]);
  }
  const partsAfter = sentAfter.filter((r) => r.operation === 'UploadPart').map((r) => r.identity);
  for (const identity of before.storedParts) expect(partsAfter, `${identity} sent again`).not.toContain(identity);
  // The same multipart upload was continued: its parts after the reload carry the upload id of those before.
  const uploadIdOf = (identity: string) => /uploadId=(\S+)/.exec(identity)?.[1];
  expect(new Set(partsAfter.map(uploadIdOf))).toEqual(new Set([uploadIdOf(before.storedParts[0]!)]));
  const partNumbers = new Set([...before.storedParts, ...partsAfter].map((identity) => partOf({ identity } as LoggedRequest)));
  expect(partNumbers.size).toBe(LARGE_PARTS);

  for (const name of ALL_NAMES) {
    const key = keys.get(name);
    expect(key, name).toBeDefined();
    expect(sha256(await storedBytes(key!)), name).toBe(sha256(expectedBytes(name)));
  }
}

describe.each(ENGINES)('a queue that survives, in %s', (engine: Engine) => {
  let browser: TestBrowser;
  const pages: TestPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await Promise.allSettled(pages.map((page) => page.close()));
    await browser?.close();
  });

  async function open(): Promise<TestPage> {
    const page = await openExamplePage(browser, `${example.origin}/${PAGE_QUERY}`, SELECTORS.dropZone);
    pages.push(page);
    return page;
  }

  // WebKitGTK under WebDriver runs on an ephemeral (private) data store, whose IndexedDB refuses Blobs and
  // Files (the transaction aborts; measured, see docs/guide/persistence.md): there the tracker says so and keeps nothing.
  it.runIf(engine === 'webkit')('WebKit (ephemeral profile): files are not kept (persistence unavailable), uploads go on, a reload restores nothing', async () => {
    keys.clear();
    const page = await open();
    holdParts();
    await dropFiles(page);
    await waitFor(async () => (await rows(page)).every((row) => row.persistence !== null || row.status === 'done'), 15_000, 'persistence known');
    const seen = await rows(page);
    expect(seen.filter((row) => row.persistence !== null).every((row) => row.persistence === 'unavailable'), JSON.stringify(seen)).toBe(true);
    await waitFor(async () => (await rows(page)).filter((row) => row.status === 'done').length >= 5, 60_000, '5 files done');
    await page.goto(`${example.origin}/${PAGE_QUERY}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await rows(page)).toEqual([]);
  });

  it.skipIf(engine === 'webkit')('a byte budget: files that would pass it are uploaded but not kept, and say so', async () => {
    keys.clear();
    // 1 MiB: four of the small files fit at once, the large one never.
    const page = await openExamplePage(browser, `${example.origin}/?persist=${MiB}&multipartThreshold=${8 * MiB}`, SELECTORS.dropZone);
    pages.push(page);
    holdParts();
    await dropFiles(page);
    await waitFor(async () => (await rows(page)).every((row) => row.persistence !== null || row.status === 'done'), 15_000, 'persistence known');
    const seen = await rows(page);
    expect(seen.find((row) => row.name === LARGE_NAME)?.persistence).toBe('over-budget');
    expect(seen.filter((row) => row.persistence === 'kept').length).toBeGreaterThanOrEqual(1);
    expect(seen.filter((row) => row.persistence === 'over-budget').length).toBeGreaterThan(1);
    await waitFor(async () => (await rows(page)).every((row) => row.status === 'done'), 90_000, 'every file done');
  });

  it.skipIf(engine === 'webkit')('reloaded halfway: the queue comes back by itself and completes; nothing stored is sent again', async () => {
    keys.clear();
    const page = await open();
    const before = await dropAndLeaveHalfway(page, () => page.goto(`${example.origin}/${PAGE_QUERY}`));
    await expectCompletedWithoutResending(page, before);
  });

  // WebKit: each page of the harness is also its own MiniBrowser with an ephemeral profile, so a second page
  // shares no IndexedDB and no Web Locks with the first.
  it.skipIf(engine === 'webkit')('closed halfway (a crash): a new page of the same profile restores and completes', async () => {
    keys.clear();
    const first = await open();
    const before = await dropAndLeaveHalfway(first, () => first.close());
    const second = await open();
    await expectCompletedWithoutResending(second, before);
  });

  it.skipIf(engine === 'webkit')('resume without persist, one file picked in two tabs: the second waits for the first and continues its upload', async () => {
    // The journal's own lock (not the kept queue's): before it, both tabs reopened one journal record.
    const dir = await mkdtemp(join(tmpdir(), 'upbeam-persist-e2e-'));
    try {
      const path = join(dir, LARGE_NAME);
      await writeFile(path, expectedBytes(LARGE_NAME));
      const address = `${example.origin}/?multipartThreshold=${8 * MiB}`;
      const pick = async (page: TestPage) => {
        await page.click('label.resume input');
        await page.setInputFile(SELECTORS.fileInput, path);
      };
      const since = lastSeq();
      holdParts();
      const first = await openExamplePage(browser, address, SELECTORS.dropZone);
      pages.push(first);
      await pick(first);
      const parts = () => after(since).filter((r) => r.operation === 'UploadPart');
      await waitFor(() => parts().filter(stored).length >= 4, 60_000, '4 parts stored by the first tab');
      const second = await openExamplePage(browser, address, SELECTORS.dropZone);
      pages.push(second);
      await pick(second);
      // The second tab waits: no second upload is created, and no part number is sent twice, while both are open.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const closedAt = Date.now();
      const whileBoth = parts().map((r) => r.identity);
      expect(new Set(whileBoth).size, whileBoth.join('\n')).toBe(whileBoth.length);
      expect(after(since).filter((r) => r.operation === 'CreateMultipartUpload')).toHaveLength(1);
      const storedBefore = parts()
        .filter((r) => stored(r) && r.answeredAt! < closedAt - 500)
        .map((r) => r.identity);
      await first.close();
      await waitFor(async () => (await second.attribute(SELECTORS.upload, 'data-status')) === 'done', 90_000, 'the second tab done');
      // It continued the first tab's upload: the same upload id, none of its stored parts sent again.
      expect(after(since).filter((r) => r.operation === 'CreateMultipartUpload')).toHaveLength(1);
      const afterClose = parts()
        .filter((r) => r.at > closedAt)
        .map((r) => r.identity);
      for (const identity of storedBefore) expect(afterClose, `${identity} sent again`).not.toContain(identity);
      expect(sha256(await storedBytes(keys.get(LARGE_NAME)!))).toBe(sha256(expectedBytes(LARGE_NAME)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(engine === 'webkit')('two tabs: the second shows the files running elsewhere and sends none; it takes over when the first goes', async () => {
    keys.clear();
    const first = await open();
    const since = lastSeq();
    // The large file's parts are held 10 s each (the proxy's longest) while the first tab is open, so that it
    // cannot finish there even on a loaded machine: the second tab must be left the large file to take over.
    // The second tab's parts pass at once (the hold no longer matches them).
    let firstOpen = true;
    for (let i = 0; i < LARGE_PARTS + 4; i += 1) {
      proxy.inject({ kind: 'delay', delayMs: 10_000 }, (request) => firstOpen && request.operation === 'UploadPart');
    }
    await dropFiles(first);
    // A file is kept a moment after it is added (one IndexedDB transaction each, in order): wait until every
    // file is listed and every one not yet done is kept.
    const kept = async () => {
      const listed = await rows(first);
      return listed.length === ALL_NAMES.length && listed.every((row) => row.persistence === 'kept' || row.status === 'done');
    };
    await waitFor(kept, 15_000, 'every file kept');
    const second = await open();
    await waitFor(async () => (await rows(second)).length > 0, 15_000, 'the second tab restores the queue');
    const seen = await rows(second);
    expect(seen.every((row) => row.status === 'elsewhere' && row.restored), JSON.stringify(seen)).toBe(true);
    // Let the first tab store a few files, then close it: the second takes over what is left.
    await waitFor(async () => (await rows(first)).filter((row) => row.status === 'done').length >= 5, 60_000, '5 files done in the first tab');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const doneInFirst = (await rows(first)).filter((row) => row.status === 'done').map((row) => row.name);
    expect(doneInFirst, 'the large file is still running in the first tab').not.toContain(LARGE_NAME);
    const closedAt = Date.now();
    await first.close();
    firstOpen = false;
    await waitFor(async () => (await rows(second)).every((row) => row.status === 'done'), 90_000, 'the second tab completes the rest');
    const inSecond = (await rows(second)).map((row) => row.name);
    // Files the first tab finished left the second tab's list; the second ran the others.
    for (const name of doneInFirst) expect(inSecond).not.toContain(name);
    expect(inSecond).toContain(LARGE_NAME);
    // Each small file was stored once or, if its PUT was in flight when the first tab closed, sent again once by the second.
    const puts = after(since).filter((r) => r.operation === 'PutObject');
    for (const name of doneInFirst) expect(puts.filter((r) => nameOf(r) === name && r.at > closedAt), `${name} sent again`).toEqual([]);
    // While both tabs were open, no file was sent twice: one tab ran each upload.
    const whileBoth = puts.filter((r) => r.at < closedAt).map(nameOf);
    expect(new Set(whileBoth).size).toBe(whileBoth.length);
    for (const name of ALL_NAMES) expect(sha256(await storedBytes(keys.get(name)!)), name).toBe(sha256(expectedBytes(name)));
  });

  it.skipIf(engine === 'webkit')('a restored multipart file waiting its turn shows its stored parts; cancelled, its upload is aborted on storage', async () => {
    keys.clear();
    // Leftover held parts of the tests before would store parts this test wants refused.
    proxy.reset();
    const since = lastSeq();
    const page = await open();
    const largeRow = `[data-upbeam="row"][data-name="${LARGE_NAME}"]`;
    /** The rows and the requests sent since the test began, for a wait's failure message. */
    const showRows = async () => ({ rows: await rows(page), requests: after(since).map((r) => `${r.operation} ${partOf(r) ?? ''} ${r.fault ?? ''} ${r.storageStatus ?? '-'}`) });
    const largeStatus = async () => (await rows(page)).find((row) => row.name === LARGE_NAME)?.status;
    // 1. The large file alone: parts 1 to 4 stored, every later part refused (500) until it fails; with
    //    `persist` (resume on) its upload and journal record are kept for a retry.
    let refusing = true;
    for (let i = 0; i < 40; i += 1) {
      proxy.inject('error-500', (request) => refusing && request.operation === 'UploadPart' && Number(partOf(request)) > 4);
    }
    await dropNamed(page, [LARGE_NAME]);
    await waitFor(async () => (await largeStatus()) === 'error', 60_000, 'the large file failed', showRows);
    refusing = false;
    const storedParts = after(since).filter((r) => r.operation === 'UploadPart' && stored(r));
    expect(new Set(storedParts.map((r) => partOf(r)))).toEqual(new Set(['1', '2', '3', '4']));
    const uploadId = /uploadId=(\S+)/.exec(storedParts[0]!.identity)?.[1];
    expect(after(since).filter((r) => r.operation === 'AbortMultipartUpload')).toEqual([]);

    // 2. Three small files take the three places (each PUT held 20 s, before and after the reload: long enough
    //    on a loaded machine for the retry and the reload to happen while they hold them), then the
    //    large file is retried: it waits, and is kept again, now the newest of the queue.
    for (let i = 0; i < 6; i += 1) proxy.inject({ kind: 'delay', delayMs: 20_000 }, (request) => request.operation === 'PutObject');
    const smallNames = [smallName(0), smallName(1), smallName(2)];
    await dropNamed(page, smallNames);
    await waitFor(async () => (await rows(page)).filter((row) => row.status === 'uploading').length === 3, 15_000, '3 small files uploading', showRows);
    await page.click(`${largeRow} [data-action="retry"]`);
    await waitFor(async () => (await largeStatus()) === 'queued', 15_000, 'the large file queued again', showRows);
    // Kept again (one IndexedDB transaction after the click, as the newest of the queue): before, a reload
    // restores it first, and it takes a place.
    await waitFor(
      async () => (await rows(page)).find((row) => row.name === LARGE_NAME)?.persistence === 'kept',
      15_000,
      'the large file kept again',
      showRows,
    );

    // 3. Reloaded: the small files come back first and take the places; the large one waits, restored, and
    //    shows the bytes of its 4 stored parts (not 0 %).
    await page.goto(`${example.origin}/${PAGE_QUERY}`);
    await waitFor(async () => Number(await page.attribute(largeRow, 'data-progress')) > 0, 15_000, 'the restored large file shows its stored parts', showRows);
    // Until the page before has let its Web Locks go, the restored files read `elsewhere` (on a loaded
    // machine the old document can unload after the new one restored); then the large one waits, `queued`.
    let restoredRows = await rows(page);
    await waitFor(
      async () => {
        restoredRows = await rows(page);
        const large = restoredRows.find((row) => row.name === LARGE_NAME);
        return large?.status !== 'elsewhere';
      },
      15_000,
      'the restored files taken over from the page before',
      showRows,
    );
    expect(restoredRows.find((row) => row.name === LARGE_NAME), JSON.stringify(restoredRows)).toMatchObject({ status: 'queued', restored: true });
    expect(Number(await page.attribute(largeRow, 'data-progress'))).toBeCloseTo(((4 * 5 * MiB) / LARGE_SIZE) * 100, 5);

    // 4. Cancelled while it waits: its multipart upload is aborted on storage, no part is sent, and its journal
    //    record is gone (before, the parts stayed until the bucket's lifecycle rule).
    const cancelledAt = lastSeq();
    await page.click(`${largeRow} [data-action="cancel"]`);
    await waitFor(
      () => after(cancelledAt).some((r) => r.operation === 'AbortMultipartUpload' && r.identity.includes(`uploadId=${uploadId}`)),
      15_000,
      'the kept upload aborted on storage',
    );
    expect(after(cancelledAt).filter((r) => r.operation === 'UploadPart')).toEqual([]);
    const journalUploadIds = () =>
      page.evaluate(
        () =>
          new Promise<string[]>((resolve, reject) => {
            const opening = indexedDB.open('upbeam-resume');
            opening.onerror = () => reject(opening.error);
            opening.onsuccess = () => {
              const listing = opening.result.transaction('uploads').objectStore('uploads').getAll();
              listing.onerror = () => reject(listing.error);
              listing.onsuccess = () => {
                opening.result.close();
                resolve((listing.result as { uploadId: string }[]).map((record) => record.uploadId));
              };
            };
          }),
        undefined,
      );
    await waitFor(async () => !(await journalUploadIds()).includes(uploadId!), 15_000, 'the journal record removed');
    expect(await largeStatus()).toBe('aborted');
    // The small files end (and leave the kept queue) before the next test.
    await waitFor(async () => (await rows(page)).every((row) => row.status === 'done' || row.status === 'aborted'), 60_000, 'the small files done');
  });
});
