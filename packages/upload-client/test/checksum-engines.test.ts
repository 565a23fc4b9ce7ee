import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsCrc32c } from '@aws-crypto/crc32c';
import { DeleteObjectCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { startFaultProxy, type FaultProxy } from '@upbeam/fault-proxy';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { CHECKSUM_ALGORITHMS, CHECKSUM_HEADERS, type ChecksumAlgorithm, type ObjectChecksum, type UploadResult } from '@upbeam/upload-protocol';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

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

// Checksums signed into the URL, end to end on `@upbeam/local-s3` (which verifies `x-amz-checksum-*`,
// Content-MD5 and If-None-Match as S3 does), through the fault proxy (it counts storage's requests and flips a
// byte on the way): one route per algorithm (the client learns it from the server: its first single PUT is
// refused CHECKSUM_REQUIRED and asked again hashed), a content-addressed route, and a route with one fixed key.
// The client is the package's source as a bundler makes it, its hash worker served beside it.

const SINGLE_SIZE = MiB + 17;
/** 3 parts of 5 MiB (the last one short). */
const MULTIPART_SIZE = 10 * MiB + 4099;
const PART_SIZE = 5 * MiB;
const CHECKSUM_REFUSED = 'The file changed while it was read, or was corrupted on the way: storage refused its checksum.';
const OVERWRITE_REFUSED = 'An object already exists under this key (storage refuses to overwrite it).';

/** Byte `i` of a test file of seed `seed`: the page and the test build the same bytes. */
const testBytes = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

/** The digest by the AWS SDK's reference implementations (CRCs) and node:crypto (SHA-256, MD5). */
async function digest(algorithm: ChecksumAlgorithm, data: Uint8Array): Promise<Buffer> {
  if (algorithm === 'sha256' || algorithm === 'md5') return createHash(algorithm).update(data).digest();
  const crc = algorithm === 'crc32c' ? new AwsCrc32c() : new Crc64Nvme();
  crc.update(data);
  return Buffer.from(await crc.digest());
}

/** As storage reports it: MD5 in hex, the others in base64. */
const reported = (algorithm: ChecksumAlgorithm, value: Buffer) => value.toString(algorithm === 'md5' ? 'hex' : 'base64');

/** The object's checksum a single PUT or a multipart upload of `bytes` must report (MULTIPART_CHECKSUM_TYPES). */
async function expectedChecksum(algorithm: ChecksumAlgorithm, bytes: Uint8Array, partSize?: number): Promise<ObjectChecksum> {
  if (!partSize || algorithm === 'crc64nvme') return { algorithm, type: 'full-object', value: reported(algorithm, await digest(algorithm, bytes)) };
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += partSize) parts.push(await digest(algorithm, bytes.subarray(start, start + partSize)));
  return { algorithm, type: 'composite', value: `${reported(algorithm, await digest(algorithm, Buffer.concat(parts)))}-${parts.length}` };
}

describe('checksums signed into the URL, on local-s3', () => {
  let storage: LocalS3;
  let proxy: FaultProxy;
  let admin: S3Client;
  let app: Server;
  let appOrigin: string;
  /** Preparation requests (POSTs) the app's endpoint received. */
  let posts = 0;

  beforeAll(async () => {
    storage = await startLocalS3();
    admin = storage.createClient();
    proxy = await startFaultProxy({ target: storage.endpoint });
    const routes = {
      ...Object.fromEntries(CHECKSUM_ALGORITHMS.map((algorithm) => [algorithm, { checksum: algorithm }])),
      content: { contentAddressed: true },
      fixed: { checksum: 'crc32c' as const, key: () => 'next-s3-uploads/fixed/one.bin' },
    };
    const handler = toNodeHandler(createUploadHandler({ ...storage.handlerSettings, endpoint: proxy.url, conditionalWrites: true, routes }));
    const bundle = (entry: string) =>
      execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--format=esm', '--platform=browser'], {
        cwd: PACKAGE,
        encoding: 'utf8',
        maxBuffer: 64 * MiB,
      });
    const scripts: Record<string, string> = { '/client.js': bundle('src/index.ts'), '/hash-worker.js': bundle('src/hash-worker.ts') };
    app = createServer((request, response) => {
      const path = request.url!.split('?')[0]!;
      if (path === '/api/s3-upload') {
        if (request.method === 'POST') posts += 1;
        return void handler(request, response);
      }
      const script = scripts[path];
      if (script) return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script type="module">import * as client from "/client.js"; window.client = client;</script>');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    app?.close();
    await proxy?.close();
    admin?.destroy();
    await storage?.close();
  });

  beforeEach(() => {
    proxy?.reset();
    posts = 0;
  });

  /** What storage holds under `key`. */
  async function storedBytes(key: string): Promise<Uint8Array> {
    const object = await admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
    return object.Body!.transformToByteArray();
  }

  /**
   * Storage's answers to the uploads' requests of `operation` the proxy forwarded, in order (`fault:status`); not
   * the handler's own probes of storage at its first request (`upbeam-doctor-*` keys).
   */
  const answers = (operation: string) =>
    proxy
      .requests()
      .filter((request) => request.operation === operation && !request.path.includes('upbeam-doctor'))
      .map((request) => `${request.fault ?? 'plain'}:${request.storageStatus}`);

  /** Prepares a presigned single PUT of `bytes` on `route` from node, with its checksum (as a page would). */
  async function prepareFromNode(route: string, algorithm: ChecksumAlgorithm, bytes: Uint8Array) {
    const value = (await digest(algorithm, bytes)).toString('base64');
    const response = await fetch(`${appOrigin}/api/s3-upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        route,
        filename: 'replayed.bin',
        filetype: 'application/octet-stream',
        filesize: bytes.length,
        _upload: { strategy: 'presigned', checksum: { algorithm, value } },
      }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { url: string; key: string; headers: Record<string, string>; checksum?: ChecksumAlgorithm };
  }

  /** A PutObject of an uploaded file (not one of the handler's probes). */
  const uploadPut = (request: { operation: string; path: string }) => request.operation === 'PutObject' && request.path.endsWith('/checked.bin');

  describe('a replayed presigned URL with other bytes (node)', () => {
    it.each(CHECKSUM_ALGORITHMS)('%s: the signed PUT refuses bytes of the same length that differ in one byte (400), nothing stored', async (algorithm) => {
      const bytes = testBytes(SINGLE_SIZE, 7);
      const prepared = await prepareFromNode(algorithm, algorithm, bytes);
      expect(prepared.checksum).toBe(algorithm);
      const signedHeader = Object.keys(prepared.headers).find((name) => name.toLowerCase() === CHECKSUM_HEADERS[algorithm]);
      expect(signedHeader, 'the answer holds the signed checksum header').toBeDefined();
      const other = bytes.slice();
      other[4242] = (other[4242]! + 1) % 256;
      const refused = await fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: other });
      expect(refused.status).toBe(400);
      await expect(storedBytes(prepared.key)).rejects.toThrow();
      // The same URL with the bytes it was signed for is stored.
      const stored = await fetch(prepared.url, { method: 'PUT', headers: prepared.headers, body: bytes });
      expect(stored.status).toBe(200);
      expect(Buffer.from(await storedBytes(prepared.key)).equals(Buffer.from(bytes))).toBe(true);
    });
  });

  describe.each(ENGINES)('in %s', (engine) => {
    let browser: TestBrowser;
    let page: TestPage;
    /** Bytes differ per engine, so that a content-addressed key stored by one engine's run is new to the next. */
    const seed = ENGINES.indexOf(engine) + 1;

    beforeAll(async () => {
      browser = await launchBrowser(engine);
      page = await browser.newPage();
    }, 120_000);
    afterAll(async () => {
      await page?.close().catch(() => {});
      await browser?.close();
    });

    /** A fresh page (no route's checksum learned yet) holding the client. */
    async function freshPage(): Promise<void> {
      await page.goto(appOrigin);
      const ran = () => page.evaluate(() => 'client' in window, null);
      await vi.waitFor(async () => expect(await ran()).toBe(true), { timeout: 15_000, interval: 100 });
    }

    /** Uploads a file of `size` test bytes of `seed` with `uploadFile`, one after the other for each of `options`. */
    function uploadInPage(size: number, bytesSeed: number, options: Record<string, unknown>[]) {
      return page.evaluate(
        async ({ size, bytesSeed, options }) => {
          type Client = typeof import('../src/index');
          const { uploadFile } = (window as unknown as { client: Client }).client;
          const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31 + bytesSeed) % 251);
          const outcomes = [];
          for (const option of options) {
            const retries: string[] = [];
            const onRetry = ({ error }: { error: unknown }) => retries.push(String((error as { answerCode?: string }).answerCode ?? (error as Error).message));
            let progress = 0;
            const onProgress = (event: { progress: number }) => (progress = event.progress);
            try {
              const result = await uploadFile(new File([bytes], 'checked.bin', { type: 'application/octet-stream' }), { ...option, onRetry, onProgress });
              outcomes.push({ result, retries, progress });
            } catch (error) {
              outcomes.push({ error: (error as Error).message, retries, progress });
            }
          }
          return outcomes;
        },
        { size, bytesSeed, options },
      ) as Promise<{ result?: UploadResult; error?: string; retries: string[]; progress: number }[]>;
    }

    it.each(CHECKSUM_ALGORITHMS)(
      'single PUT on the %s route: CHECKSUM_REQUIRED once, then hashed first; stored with the full-object checksum the references compute',
      async (algorithm) => {
        await freshPage();
        const [first, second] = await uploadInPage(SINGLE_SIZE, seed, [{ route: algorithm }, { route: algorithm }]);
        // The first file of the route on this page asks twice (refused CHECKSUM_REQUIRED, then with its checksum); the second, knowing it, once.
        expect(posts).toBe(3);
        expect(answers('PutObject')).toEqual(['plain:200', 'plain:200']);
        const bytes = testBytes(SINGLE_SIZE, seed);
        const expected = await expectedChecksum(algorithm, bytes);
        for (const outcome of [first!, second!]) {
          expect(outcome.error).toBeUndefined();
          expect(outcome.result!.checksum).toEqual(expected);
          expect(outcome.result!.deduplicated).toBeUndefined();
          expect(Buffer.from(await storedBytes(outcome.result!.key)).equals(Buffer.from(bytes))).toBe(true);
        }
      },
    );

    it.each(CHECKSUM_ALGORITHMS)('multipart on the %s route: each part signed with its checksum; the object checksum S3 defines', async (algorithm) => {
      await freshPage();
      const [outcome] = await uploadInPage(MULTIPART_SIZE, seed, [{ route: algorithm, multipartThreshold: 5 * MiB }]);
      expect(outcome!.error).toBeUndefined();
      expect(answers('UploadPart')).toEqual(['plain:200', 'plain:200', 'plain:200']);
      const bytes = testBytes(MULTIPART_SIZE, seed);
      expect(outcome!.result!.checksum).toEqual(await expectedChecksum(algorithm, bytes, PART_SIZE));
      expect(Buffer.from(await storedBytes(outcome!.result!.key)).equals(Buffer.from(bytes))).toBe(true);
    });

    it('a byte flipped on the way: storage refuses the checksum, the file is hashed and sent again, stored whole; refused twice: final', async () => {
      await freshPage();
      proxy.inject('flip-byte', uploadPut);
      const [once] = await uploadInPage(SINGLE_SIZE, seed, [{ route: 'crc32c' }]);
      expect(answers('PutObject')).toEqual(['flip-byte:400', 'plain:200']);
      expect(once!.retries).toHaveLength(1);
      expect(Buffer.from(await storedBytes(once!.result!.key)).equals(Buffer.from(testBytes(SINGLE_SIZE, seed)))).toBe(true);

      proxy.reset();
      proxy.inject('flip-byte', uploadPut);
      proxy.inject('flip-byte', uploadPut);
      const [twice] = await uploadInPage(SINGLE_SIZE, seed, [{ route: 'crc32c' }]);
      expect(answers('PutObject')).toEqual(['flip-byte:400', 'flip-byte:400']);
      expect(twice!.error).toBe(CHECKSUM_REFUSED);
    });

    it('a content-addressed route: the second upload of the same bytes sends no byte and resolves deduplicated', async () => {
      await freshPage();
      const [first, second] = await uploadInPage(SINGLE_SIZE, seed + 100, [{ route: 'content' }, { route: 'content' }]);
      expect(first!.error).toBeUndefined();
      expect(second!.error).toBeUndefined();
      const bytes = testBytes(SINGLE_SIZE, seed + 100);
      const hex = createHash('sha256').update(bytes).digest('hex');
      expect(first!.result!.key).toContain(`sha256/${hex}`);
      expect(first!.result!.deduplicated).toBeUndefined();
      expect(second!.result).toMatchObject({ key: first!.result!.key, deduplicated: true, checksum: await expectedChecksum('sha256', bytes) });
      expect(second!.progress).toBe(100);
      // One PUT in all: the first upload's.
      expect(answers('PutObject')).toEqual(['plain:200']);
      expect(Buffer.from(await storedBytes(first!.result!.key)).equals(Buffer.from(bytes))).toBe(true);
    });

    it('a content-addressed route, multipart: the key names the composite SHA-256 (-3); the second upload sends no part, deduplicated', async () => {
      await freshPage();
      const options = { route: 'content', multipartThreshold: 5 * MiB };
      const [first, second] = await uploadInPage(MULTIPART_SIZE, seed + 300, [options, options]);
      expect(first!.error).toBeUndefined();
      expect(second!.error).toBeUndefined();
      const bytes = testBytes(MULTIPART_SIZE, seed + 300);
      const expected = await expectedChecksum('sha256', bytes, PART_SIZE);
      expect(first!.result!.checksum).toEqual(expected);
      expect(first!.result!.key).toContain(`sha256/${Buffer.from(expected.value.split('-')[0]!, 'base64').toString('hex')}-3`);
      expect(second!.result).toMatchObject({ key: first!.result!.key, deduplicated: true, checksum: expected });
      expect(second!.progress).toBe(100);
      expect(answers('UploadPart')).toEqual(['plain:200', 'plain:200', 'plain:200']);
      expect(Buffer.from(await storedBytes(first!.result!.key)).equals(Buffer.from(bytes))).toBe(true);
    });

    it('If-None-Match: a second upload to a key that holds an object is refused (412), the first object kept', async () => {
      await freshPage();
      await admin.send(new DeleteObjectCommand({ Bucket: storage.bucket, Key: 'next-s3-uploads/fixed/one.bin' }));
      const [first, second] = await uploadInPage(SINGLE_SIZE, seed + 200, [{ route: 'fixed' }, { route: 'fixed' }]);
      expect(first!.error).toBeUndefined();
      expect(second!.error).toBe(OVERWRITE_REFUSED);
      expect(answers('PutObject')).toEqual(['plain:200', 'plain:412']);
      expect(Buffer.from(await storedBytes('next-s3-uploads/fixed/one.bin')).equals(Buffer.from(testBytes(SINGLE_SIZE, seed + 200)))).toBe(true);
    });
  });
});
