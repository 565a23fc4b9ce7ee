import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExample, type RunningExample } from '@upbeam/example-shared/example-server';
import { ENGINES, launchBrowser, type Engine, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from './bundle-page';

// A kept queue belongs to the user who picked its files (issue 42, hole 4), in chromium and Firefox: two users
// of one browser profile (one browser, the `session` cookie signs them in and out), the page of an app with
// sign-in (`kept-queue-page.tsx`: `persist: { scope: user }`). Written as the attack: user A picks a file,
// which stays kept (its preparation is held) when A leaves; user B signs in on the same profile and opens
// the page. Before, B's tracker restored A's file and prepared it with B's cookie, and B's multipart upload of
// the same file continued A's (A's ticket and key under B's session). Now B sees none of it, A gets it back
// on signing in again, and `clearKeptUploads(user)` on sign-out empties it and aborts A's multipart upload.

const KiB = 1024;
const MiB = 1024 * KiB;

/** One request to the preparation endpoint, as the server saw it. */
interface Received {
  /** The `session` cookie it came with. */
  user: string | undefined;
  filename: string | undefined;
  /** The multipart operation (`create`, `sign-parts`, `complete`, `abort`...), if one. */
  action: string | undefined;
  /** The ticket it sent back (a multipart operation after `create`). */
  ticket: string | undefined;
  /** The ticket a `create` answered. */
  answeredTicket?: string;
}

let dir: string;
let example: RunningExample;
let received: Received[] = [];
/** Requests matching it wait until {@link release} (a file stays queued and kept meanwhile). */
let holding: ((request: Received) => boolean) | undefined;
let released: Promise<void> = Promise.resolve();
let releaseHeld: () => void = () => {};

function hold(matches: (request: Received) => boolean): void {
  holding = matches;
  released = new Promise((resolve) => (releaseHeld = resolve));
}
function release(): void {
  holding = undefined;
  releaseHeld();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upbeam-kept-queue-'));
  await writeFile(join(dir, 'page.js'), await bundlePage(new URL('./kept-queue-page.tsx', import.meta.url)));
  const html = '<!doctype html><html lang="en"><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
  await writeFile(join(dir, 'index.html'), html);
  // A page of the origin without the app, where the test sets the cookie before the app's page loads.
  await writeFile(join(dir, 'blank.html'), '<!doctype html><html lang="en"><body></body></html>');
  example = await startExample(dir);
  const handler: UploadHandler = createUploadHandler({ ...example.settings, stsClient: example.storage.stsClient });
  example.setUploadHandler(async (request) => {
    const body = (await request.clone().json()) as { filename?: string; _upload?: { multipart?: { action?: string; ticket?: string } } };
    const user = /(?:^|; )session=([^;]*)/.exec(request.headers.get('cookie') ?? '')?.[1];
    const seen: Received = { user, filename: body.filename, action: body._upload?.multipart?.action, ticket: body._upload?.multipart?.ticket };
    received.push(seen);
    // An app answers only a signed-in user.
    if (!user) return Response.json({ error: 'Sign in first.', code: 'UNAUTHORIZED' }, { status: 401 });
    if (holding?.(seen)) await released;
    const response = await handler(request);
    if (seen.action === 'create' && response.ok) seen.answeredTicket = ((await response.clone().json()) as { ticket: string }).ticket;
    return response;
  });
}, 120_000);

afterAll(async () => {
  release();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  release();
  received = [];
});

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

const rowOf = async (page: TestPage, name: string) => (await rows(page)).find((row) => row.name === name);

/**
 * What the browser keeps now, as the scope of each record (`''`: unscoped): the kept queue's files (keys
 * `[[scope, name], id]`) and the resume journal's records (keys `[scope, id]`).
 */
const kept = (page: TestPage) =>
  page.evaluate(
    () =>
      new Promise<{ queue: string[]; uploads: string[] }>((resolve, reject) => {
        const opening = indexedDB.open('upbeam-resume');
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const db = opening.result;
          const transaction = db.transaction(['queue', 'uploads']);
          const queue = transaction.objectStore('queue').getAllKeys();
          const uploads = transaction.objectStore('uploads').getAllKeys();
          transaction.oncomplete = () => {
            db.close();
            const scopeOf = (key: unknown) => (Array.isArray(key) ? String(key[0]) : '');
            resolve({
              queue: queue.result.map((key) => scopeOf((key as unknown[])[0])),
              uploads: uploads.result.map(scopeOf),
            });
          };
        };
      }),
    undefined,
  );

/** Waits until `user`'s done files have left the kept queue (a file is forgotten a moment after it shows done). */
const forgotten = (page: TestPage, user: string) => expect.poll(async () => (await kept(page)).queue.includes(user)).toBe(false);

describe.each(ENGINES.filter((engine) => engine !== 'webkit'))('a kept queue belongs to its user, in %s', (engine: Engine) => {
  // WebKit is left out: under WebDriver its profile is ephemeral and keeps no File (see persist.e2e.test.ts).
  let browser: TestBrowser;
  const pages: TestPage[] = [];

  beforeAll(async () => {
    browser = await launchBrowser(engine);
  });
  afterAll(async () => {
    await Promise.allSettled(pages.map((page) => page.close()));
    await browser?.close();
  });

  /** Opens the page signed in as `user` (its `session` cookie; `undefined`: signed out), at `query`. */
  async function open(user: string | undefined, query = ''): Promise<TestPage> {
    const page = await browser.newPage();
    pages.push(page);
    await page.goto(`${example.origin}/blank.html`);
    await page.evaluate((name) => {
      document.cookie = name ? `session=${name}; path=/` : 'session=; path=/; max-age=0';
    }, user ?? '');
    await page.goto(`${example.origin}/${query}`);
    return page;
  }

  /** Adds a file and waits until it is done (B's own upload: once it is, B's tracker restored long before, if it would). */
  async function uploadOwn(page: TestPage, name: string): Promise<void> {
    await expect.poll(() => page.evaluate(() => typeof window.keptQueue?.add, undefined)).toBe('function');
    await page.evaluate((file) => window.keptQueue.add([file]), { name, seed: 2, size: 64 * KiB });
    await expect.poll(async () => (await rowOf(page, name))?.status, { timeout: 30_000 }).toBe('done');
  }

  /** Adds files and waits until each is kept. */
  async function addKept(page: TestPage, files: { name: string; seed: number; size: number }[]): Promise<void> {
    await expect.poll(() => page.evaluate(() => typeof window.keptQueue?.add, undefined)).toBe('function');
    await page.evaluate((list) => window.keptQueue.add(list), files);
    for (const { name } of files) await expect.poll(async () => (await rowOf(page, name))?.persistence).toBe('kept');
  }

  it("user B, on the same profile after A, neither sees nor prepares A's kept file; A gets it back; clearKeptUploads empties it", async () => {
    // 1. A picks a file; its preparation is held, so it is still kept when A leaves (signs out, closes the page).
    hold((request) => request.user === 'alice');
    const alice = await open('alice');
    await addKept(alice, [{ name: 'alice-1.bin', seed: 1, size: 64 * KiB }]);
    await alice.close();

    // 2. B signs in on the same profile: A's file is not on B's list, and never prepared with B's cookie.
    const bob = await open('bob');
    await uploadOwn(bob, 'bob-1.bin');
    expect((await rows(bob)).map((row) => row.name)).toEqual(['bob-1.bin']);
    await forgotten(bob, 'bob');
    expect(received.filter((request) => request.user === 'bob').map((request) => request.filename)).toEqual(['bob-1.bin']);
    // A's file is still kept, for A.
    expect((await kept(bob)).queue).toEqual(['alice']);
    await bob.close();

    // 3. A signs in again: the file comes back, restored, and is uploaded under A's session.
    release();
    const aliceAgain = await open('alice');
    await expect.poll(async () => await rowOf(aliceAgain, 'alice-1.bin'), { timeout: 30_000 }).toMatchObject({ status: 'done', restored: true });
    expect(received.filter((request) => request.filename === 'alice-1.bin').map((request) => request.user)).toEqual(['alice', 'alice']);

    // 4. A picks another file (held again) and signs out with `clearKeptUploads('alice')` on the page: the
    //    tracker drops it at once, and the next page of A restores nothing.
    hold((request) => request.user === 'alice' && request.filename === 'alice-2.bin');
    await addKept(aliceAgain, [{ name: 'alice-2.bin', seed: 3, size: 64 * KiB }]);
    const signOut = await open('alice', '?signout');
    await expect.poll(() => signOut.evaluate(() => window.keptQueue.signedOut === true, undefined)).toBe(true);
    await expect.poll(async () => (await rows(aliceAgain)).map((row) => row.name), { timeout: 15_000 }).toEqual([]);
    expect(await kept(signOut)).toEqual({ queue: [], uploads: [] });
    await aliceAgain.close();
    const aliceLater = await open('alice');
    await uploadOwn(aliceLater, 'alice-3.bin');
    expect((await rows(aliceLater)).map((row) => row.name)).toEqual(['alice-3.bin']);
    await aliceLater.close();
  });

  it("B's multipart upload of the same file never continues A's; A's is aborted on storage by the sign-out's clear", async () => {
    // 1. A's file of 6 MiB (two parts): both stored, the completion held, so the upload and its journal
    //    record are kept when A leaves.
    const big = { name: 'shared.bin', seed: 9, size: 6 * MiB };
    hold((request) => request.user === 'alice' && request.action === 'complete');
    const alice = await open('alice');
    await addKept(alice, [big]);
    await expect.poll(() => received.some((request) => request.user === 'alice' && request.action === 'complete'), { timeout: 30_000 }).toBe(true);
    const aliceTicket = received.find((request) => request.user === 'alice' && request.action === 'create')?.answeredTicket;
    expect(aliceTicket).toBeDefined();
    await alice.close();

    // 2. B picks the same file (name, size, lastModified, type, bytes): a new multipart upload of B's, not A's.
    const bob = await open('bob');
    await expect.poll(() => bob.evaluate(() => typeof window.keptQueue?.add, undefined)).toBe('function');
    await bob.evaluate((file) => window.keptQueue.add([file]), big);
    await expect.poll(async () => (await rowOf(bob, big.name))?.status, { timeout: 30_000 }).toBe('done');
    await forgotten(bob, 'bob');
    // A's file and its journal record are still kept, for A.
    expect(await kept(bob)).toEqual({ queue: ['alice'], uploads: ['alice'] });
    const fromBob = received.filter((request) => request.user === 'bob');
    expect(fromBob.map((request) => request.action)).toContain('create');
    expect(fromBob.filter((request) => request.ticket === aliceTicket)).toEqual([]);
    await bob.close();

    // 3. A signs out on a page without an uploader: `clearKeptUploads('alice')` aborts A's kept upload through
    //    the endpoint, under A's session, and the browser keeps nothing.
    const signOut = await open('alice', '?signout');
    await expect.poll(() => signOut.evaluate(() => window.keptQueue.signedOut === true, undefined)).toBe(true);
    const aborts = received.filter((request) => request.action === 'abort');
    expect(aborts.map((request) => [request.user, request.ticket === aliceTicket])).toEqual([['alice', true]]);
    expect(await kept(signOut)).toEqual({ queue: [], uploads: [] });
    await signOut.close();
  });
});
