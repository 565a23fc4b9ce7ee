import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The MD5 of `checksum: 'md5'` in each engine's own way of reading a file (`checksum.ts`): chromium and
// Firefox read `Blob.stream()` as a byte stream into one reused buffer, WebKit (whose `Blob.stream()` is
// not a byte stream) reads slices. A picked file of a few MiB, read in several chunks with a short last
// one, hashes to the MD5 node computes, and so do an in-memory Blob and an empty file.

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
/** Three 1 MiB reads and a short fourth (and, for a part, a start that is not on a read boundary). */
const SIZE = 3 * MiB + 4099;

let server: Server;
let origin: string;
let dir: string;
let filePath: string;
let emptyPath: string;
const bytes = Uint8Array.from({ length: SIZE }, (_, i) => (i * 31) % 251);
const md5Hex = (data: Uint8Array) => createHash('md5').update(data).digest('hex');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upbeam-checksum-'));
  filePath = join(dir, 'hashed.bin');
  emptyPath = join(dir, 'empty.bin');
  await writeFile(filePath, bytes);
  await writeFile(emptyPath, new Uint8Array(0));
  // The checksum chunk as a bundler makes it (hash-wasm inlined).
  const bundle = execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), ['src/checksum.ts', '--bundle', '--format=esm', '--platform=browser'], {
    cwd: PACKAGE,
    encoding: 'utf8',
  });
  server = createServer((request, response) => {
    if (request.url === '/checksum.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><input type="file"><script type="module">import * as checksum from "/checksum.js"; window.checksum = checksum;</script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Hex MD5s, in the page, of the picked file, of its slice `[start, end)` and of an in-memory Blob of it. */
function hashInPage(page: TestPage, slice: { start: number; end: number }) {
  return page.evaluate(async ({ start, end }) => {
    type Checksum = typeof import('../src/checksum');
    const { md5Of, fullObjectChecksum } = (window as unknown as { checksum: Checksum }).checksum;
    const hex = async (blob: Blob) => fullObjectChecksum('md5', await md5Of(blob)).value;
    const file = (document.querySelector('input') as HTMLInputElement).files![0]!;
    const [whole, part, inMemory] = await Promise.all([hex(file), hex(file.slice(start, end)), hex(new Blob([await file.arrayBuffer()]))]);
    return { whole, part, inMemory };
  }, slice);
}

describe.each(ENGINES)('checksum: MD5 of a picked file in %s', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
    page = await browser.newPage();
    await page.goto(origin);
    // The module script runs before the `load` event that `goto` waits for; WebKit's driver under load (CI,
    // 2026-11-29) once answered `goto` before it had run: wait for it rather than read it once.
    const ran = () => page.evaluate(() => 'checksum' in window, null);
    await vi.waitFor(async () => expect(await ran()).toBe(true), { timeout: 15_000, interval: 100 });
  }, 120_000);
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  it('a file of 3 MiB and 4099 bytes, a slice of it and a Blob of its bytes: the MD5 node computes', async () => {
    await page.setInputFile('input', filePath);
    const slice = { start: MiB + 17, end: SIZE - 5 };
    expect(await hashInPage(page, slice)).toEqual({
      whole: md5Hex(bytes),
      part: md5Hex(bytes.subarray(slice.start, slice.end)),
      inMemory: md5Hex(bytes),
    });
  });

  it('an empty file: the MD5 of no bytes', async () => {
    await page.setInputFile('input', emptyPath);
    expect(await hashInPage(page, { start: 0, end: 0 })).toEqual({ whole: md5Hex(new Uint8Array(0)), part: md5Hex(new Uint8Array(0)), inMemory: md5Hex(new Uint8Array(0)) });
  });
});
