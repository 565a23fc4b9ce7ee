import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsCrc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The hash worker in each engine (`worker-digest.ts`, `hash-worker.ts`): the page posts a picked file (and a
// slice of it) to the module Worker, which reads it in 1 MiB chunks (WebKit: slices) and answers the digest
// of each algorithm, equal to the reference's; the main-thread fallback is never used. Where the worker's
// file is missing (a bundler that left it behind: 404), or the worker may not compile WebAssembly (its
// Content-Security-Policy), the fallback hashes instead.

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
const SIZE = 3 * MiB + 4099;
const SLICE = { start: MiB + 17, end: SIZE - 5 };

let server: Server;
let origin: string;
let dir: string;
let filePath: string;
const bytes = Uint8Array.from({ length: SIZE }, (_, i) => (i * 31) % 251);

async function reference(algorithm: ChecksumAlgorithm, data: Uint8Array): Promise<string> {
  if (algorithm === 'sha256' || algorithm === 'md5') return createHash(algorithm).update(data).digest('hex');
  const crc = algorithm === 'crc32c' ? new AwsCrc32c() : new Crc64Nvme();
  crc.update(data);
  return Buffer.from(await crc.digest()).toString('hex');
}

/** A module of src/ as a bundler makes it (hash-wasm inlined). */
const bundle = (entry: string) =>
  execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--format=esm', '--platform=browser'], { cwd: PACKAGE, encoding: 'utf8' });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upbeam-hash-worker-'));
  filePath = join(dir, 'hashed.bin');
  await writeFile(filePath, bytes);
  const files: Record<string, string> = {
    '/worker-digest.js': bundle('src/worker-digest.ts'),
    '/hash-worker.js': bundle('src/hash-worker.ts'),
    '/broken/worker-digest.js': bundle('src/worker-digest.ts'),
    '/no-wasm/worker-digest.js': bundle('src/worker-digest.ts'),
  };
  files['/no-wasm/hash-worker.js'] = files['/hash-worker.js']!;
  server = createServer((request, response) => {
    const path = request.url!.split('?')[0]!;
    const script = files[path];
    // The worker of /no-wasm/ under a policy that forbids compiling WebAssembly (no 'wasm-unsafe-eval').
    const policy = path.startsWith('/no-wasm/hash-worker') ? { 'content-security-policy': "script-src 'self'" } : {};
    if (script) return void response.writeHead(200, { 'content-type': 'text/javascript', ...policy }).end(script);
    if (path.endsWith('.js')) return void response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><input type="file"><script type="module">import * as hashing from "./worker-digest.js"; window.hashing = hashing;</script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Hex digests, in the page, of the picked file and of its slice, by each algorithm, and whether the fallback ran. */
function hashInPage(page: TestPage) {
  return page.evaluate(
    async ({ algorithms, start, end }) => {
      type Hashing = typeof import('../src/worker-digest');
      const { digestInWorker } = (window as unknown as { hashing: Hashing }).hashing;
      let fallbacks = 0;
      // The main thread's stand-in: counts its uses, answers no digest of its own.
      const fallback = async () => (fallbacks++, new Uint8Array(0));
      const hex = async (blob: Blob, algorithm: (typeof algorithms)[number]) =>
        Array.from(await digestInWorker(blob, algorithm, fallback), (byte) => byte.toString(16).padStart(2, '0')).join('');
      const file = (document.querySelector('input') as HTMLInputElement).files![0]!;
      const digests: Record<string, { whole: string; part: string }> = {};
      for (const algorithm of algorithms) {
        const [whole, part] = await Promise.all([hex(file, algorithm), hex(file.slice(start, end), algorithm)]);
        digests[algorithm] = { whole, part };
      }
      return { digests, fallbacks };
    },
    { algorithms: [...CHECKSUM_ALGORITHMS], ...SLICE },
  );
}

describe.each(ENGINES)('hash worker in %s', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;

  beforeAll(async () => {
    browser = await launchBrowser(engine);
    page = await browser.newPage();
  }, 120_000);
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  async function open(path: string): Promise<void> {
    await page.goto(`${origin}${path}`);
    const ran = () => page.evaluate(() => 'hashing' in window, null);
    await vi.waitFor(async () => expect(await ran()).toBe(true), { timeout: 15_000, interval: 100 });
    await page.setInputFile('input', filePath);
  }

  it('hashes a picked file and a slice of it by each algorithm in the worker, as the references do', async () => {
    await open('/');
    const expected: Record<string, { whole: string; part: string }> = {};
    for (const algorithm of CHECKSUM_ALGORITHMS) {
      expected[algorithm] = { whole: await reference(algorithm, bytes), part: await reference(algorithm, bytes.subarray(SLICE.start, SLICE.end)) };
    }
    expect(await hashInPage(page)).toEqual({ digests: expected, fallbacks: 0 });
  });

  it("a file changed on disk after it was picked: the worker's read error reaches the page as the page's own read's (class, name, message)", async () => {
    await open('/');
    const changed = join(dir, `changed-${engine}.bin`);
    await writeFile(changed, bytes.subarray(0, MiB));
    await page.setInputFile('input', changed);
    await writeFile(changed, bytes.subarray(0, 2 * MiB));
    const outcomes = await page.evaluate(async () => {
      type Hashing = typeof import('../src/worker-digest');
      const { digestInWorker } = (window as unknown as { hashing: Hashing }).hashing;
      const file = (document.querySelector('input') as HTMLInputElement).files![0]!;
      const outcome = (promise: Promise<unknown>) => promise.then(() => 'read', (error: Error) => `${error.name}: ${error.message}`);
      // As the main thread reads it (hash-blob.ts): BYOB, or slices where the stream is not a byte stream.
      const readOnPage = async () => {
        try {
          const reader = file.stream().getReader({ mode: 'byob' });
          while (!(await reader.read(new Uint8Array(65_536))).done);
        } catch (error) {
          if (!(error instanceof TypeError && /byob|byte/i.test(error.message))) throw error;
          await file.slice(0, 65_536).arrayBuffer();
        }
      };
      const fromWorker = digestInWorker(file, 'crc32c', () => Promise.reject(new Error('fallback')));
      const worker = await fromWorker.then(() => 'read', (error: Error) => `${error instanceof TypeError ? 'TypeError' : error.name}: ${error.message}`);
      return { worker, page: await outcome(readOnPage()) };
    }, null);
    expect(outcomes.worker).toBe(outcomes.page);
    // Firefox and WebKit read the changed file (both threads alike); chromium refuses it.
    if (engine === 'chromium') expect(outcomes.page).toBe('TypeError: network error');
  });

  it('falls back to the main thread when the worker file is missing (404)', async () => {
    await open('/broken/');
    const { fallbacks } = await hashInPage(page);
    expect(fallbacks).toBe(CHECKSUM_ALGORITHMS.length * 2);
  });

  it('falls back to the main thread when the worker may not compile WebAssembly (its CSP)', async () => {
    await open('/no-wasm/');
    const { fallbacks } = await hashInPage(page);
    expect(fallbacks).toBe(CHECKSUM_ALGORITHMS.length * 2);
  });
});
