import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsCrc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startFaultProxy, type FaultProxy } from '@upbeam/fault-proxy';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { ENGINES, launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import type { ChecksumAlgorithm, UploadResult } from '@upbeam/upload-protocol';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Issue 46 end to end in chromium, Firefox and WebKit: `uploadFile` with `checksum: 'crc32c' | 'crc64nvme' |
// 'sha256'` (presigned strategy) to `@upbeam/local-s3`, which verifies `x-amz-checksum-*` as S3 does, through
// the fault proxy. The page hashes in the worker (`hash-worker.js` served beside the client), the handler signs
// the single PUT's checksum and each part's into their URLs; the proxy inverts one byte of one PUT's body;
// storage refuses it, the client sends it again, and the stored object is byte-identical, with the checksum
// the AWS SDK's references compute (CRC32C and SHA-256 composite over the parts, CRC64NVME full-object).

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
/** Two parts of 5 MiB (the last one short). */
const MULTIPART_SIZE = 5 * MiB + 4099;
const SINGLE_SIZE = 256 * 1024 + 17;
const ALGORITHMS = ['crc32c', 'crc64nvme', 'sha256'] as const;

let storage: LocalS3;
let admin: S3Client;
let proxy: FaultProxy;
let server: Server;
let origin: string;
/** Requests for the hash worker's file: the pages hashed in the worker, not on the main thread. */
let workerLoads = 0;

/** Byte `i` of a test file: the page and the test build the same bytes. */
const fileBytes = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);

async function digest(algorithm: ChecksumAlgorithm, data: Uint8Array): Promise<Buffer> {
  if (algorithm === 'sha256' || algorithm === 'md5') return createHash(algorithm).update(data).digest();
  const crc = algorithm === 'crc32c' ? new AwsCrc32c() : new Crc64Nvme();
  crc.update(data);
  return Buffer.from(await crc.digest());
}

/** The object's checksum as S3 reports it: full-object for one PUT and for CRC64NVME, else composite `-N`. */
async function expectedChecksum(algorithm: ChecksumAlgorithm, bytes: Uint8Array, parts: Uint8Array[] | undefined) {
  if (!parts || algorithm === 'crc64nvme') return { algorithm, type: 'full-object', value: (await digest(algorithm, bytes)).toString('base64') };
  const joined = Buffer.concat(await Promise.all(parts.map((part) => digest(algorithm, part))));
  return { algorithm, type: 'composite', value: `${(await digest(algorithm, joined)).toString('base64')}-${parts.length}` };
}

beforeAll(async () => {
  storage = await startLocalS3();
  admin = storage.createClient();
  proxy = await startFaultProxy({ target: storage.endpoint });
  const handler = toNodeHandler(createUploadHandler({ ...storage.handlerSettings, endpoint: proxy.url }));
  // The client as an app's bundler makes it (lazy chunks and hash-wasm inlined), its hash worker beside it.
  const bundle = (entry: string) =>
    execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--format=esm', '--platform=browser'], {
      cwd: PACKAGE,
      encoding: 'utf8',
      maxBuffer: 64 * MiB,
    });
  const scripts: Record<string, string> = { '/client.js': bundle('src/index.ts'), '/hash-worker.js': bundle('src/hash-worker.ts') };
  server = createServer((request, response) => {
    if (request.url === '/api/s3-upload') return void handler(request, response);
    if (request.url === '/hash-worker.js') workerLoads++;
    const script = scripts[request.url ?? ''];
    if (script) return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><script type="module">import * as client from "/client.js"; window.client = client;</script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  server?.close();
  await proxy?.close();
  admin?.destroy();
  await storage?.close();
});

/** The uploaded file's requests (not the handler's probe of the bucket on its first presigned URL). */
const isUpload = (request: { path: string }) => request.path.endsWith('/checked.bin');

/** Storage's answers to the uploaded file's `operation` requests the proxy forwarded, in order. */
const answers = (operation: string) =>
  proxy
    .requests()
    .filter((request) => request.operation === operation && isUpload(request))
    .map((request) => `${request.fault ?? 'plain'}:${request.storageStatus}`);

describe.each(ENGINES)('checksums in %s: each algorithm signed into the URLs, a flipped byte refused and sent again', (engine) => {
  let browser: TestBrowser;
  let page: TestPage;

  let workerLoadsBefore: number;

  beforeAll(async () => {
    workerLoadsBefore = workerLoads;
    browser = await launchBrowser(engine);
    page = await browser.newPage();
  }, 120_000);
  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
  });

  /** Uploads `size` test bytes from a fresh load of the page with `uploadFile(file, options)`. */
  async function upload(size: number, options: Record<string, unknown>) {
    await page.goto(origin);
    await vi.waitFor(async () => expect(await page.evaluate(() => 'client' in window, null)).toBe(true), { timeout: 15_000, interval: 100 });
    return page.evaluate(
      async ({ size, options }) => {
        type Client = typeof import('../src/index');
        const { uploadFile } = (window as unknown as { client: Client }).client;
        const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);
        const retries: string[] = [];
        const onRetry = ({ error }: { error: unknown }) => retries.push(String((error as { answerCode?: string }).answerCode ?? (error as Error).message));
        const result = await uploadFile(new File([bytes], 'checked.bin', { type: 'application/octet-stream' }), { ...options, onRetry });
        return { result, retries };
      },
      { size, options },
    ) as Promise<{ result: UploadResult; retries: string[] }>;
  }

  async function expectStored(result: UploadResult, bytes: Uint8Array, algorithm: ChecksumAlgorithm) {
    const object = await admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: result.key }));
    const stored = await object.Body!.transformToByteArray();
    expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    // Storage reports the checksum it verified, the one the result carries.
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: result.key, ChecksumMode: 'ENABLED' }));
    const reported = { crc32c: head.ChecksumCRC32C, crc64nvme: head.ChecksumCRC64NVME, sha256: head.ChecksumSHA256, md5: undefined }[algorithm];
    expect(reported).toBe(result.checksum!.value);
  }

  it.each(ALGORITHMS)('%s, one PUT: refused once, stored byte-identical, the full-object checksum', async (algorithm) => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'PutObject' && isUpload(request));
    const { result, retries } = await upload(SINGLE_SIZE, { strategy: 'presigned', checksum: algorithm });
    expect(answers('PutObject')).toEqual(['flip-byte:400', 'plain:200']);
    expect(retries).toHaveLength(1);
    const bytes = fileBytes(SINGLE_SIZE);
    expect(result.checksum).toEqual(await expectedChecksum(algorithm, bytes, undefined));
    await expectStored(result, bytes, algorithm);
  });

  it.each(ALGORITHMS)('%s, multipart: the flipped part refused once, stored byte-identical, the multipart checksum', async (algorithm) => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'UploadPart' && request.query.get('partNumber') === '2');
    const { result, retries } = await upload(MULTIPART_SIZE, { strategy: 'presigned', checksum: algorithm, multipartThreshold: 5 * MiB });
    expect(answers('UploadPart')).toContain('flip-byte:400');
    expect(retries).toHaveLength(1);
    const bytes = fileBytes(MULTIPART_SIZE);
    expect(result.checksum).toEqual(await expectedChecksum(algorithm, bytes, [bytes.subarray(0, 5 * MiB), bytes.subarray(5 * MiB)]));
    await expectStored(result, bytes, algorithm);
  });

  it('hashed in the worker (its file was loaded)', () => {
    expect(workerLoads).toBeGreaterThan(workerLoadsBefore);
  });
});
