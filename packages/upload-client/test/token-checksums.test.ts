import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AwsCrc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { startFaultProxy, type FaultProxy } from '@upbeam/fault-proxy';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { launchChromiumContext, type ChromiumContext } from '@upbeam/test-browser';
import type { ChecksumAlgorithm, UploadResult } from '@upbeam/upload-protocol';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The temporary-token strategy's checksums end to end, in chromium against @upbeam/local-s3 (which verifies
// x-amz-checksum-*, Content-MD5 and If-None-Match as S3 does): `uploadFile` with each algorithm, one single
// PUT and one multipart upload of 3 parts each; the checksum storage keeps (HeadObject with checksum mode,
// read by the AWS SDK; the ETag for MD5) is the result's `checksum`, and both are the AWS SDK's reference
// values (@aws-crypto/crc32c, @aws-sdk/crc64-nvme, node:crypto). With the handler's `conditionalWrites`, the
// token answer asks for `If-None-Match: *` and a second upload to the same key is refused, single or multipart.
// Through the fault proxy: a resumed upload hashes its stored parts again for its Complete; a PutObject whose
// answer was lost, retried and answered 412, counts as stored.

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
/** 3 parts of 5 MiB (the last one short). */
const MULTIPART_SIZE = 10 * MiB + 4099;
const SINGLE_SIZE = 1 * MiB + 17;
const PART_SIZE = 5 * MiB;
/** The key every upload of the no-overwrite handler writes. */
const FIXED_KEY = 'next-s3-uploads/once.bin';

let storage: LocalS3;
let admin: S3Client;
let browser: ChromiumContext;
let page: Server;
let origin: string;
let proxy: FaultProxy;

/** Byte `i` of a test file: the page and the test build the same bytes. */
const fileBytes = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);

/** The reference digest of `bytes` (the AWS SDK's CRCs, node's SHA-256 and MD5), big-endian as S3 sends it. */
async function digest(algorithm: ChecksumAlgorithm, bytes: Uint8Array): Promise<Buffer> {
  if (algorithm === 'md5' || algorithm === 'sha256') return createHash(algorithm).update(bytes).digest();
  const crc = algorithm === 'crc32c' ? new AwsCrc32c() : new Crc64Nvme();
  crc.update(bytes);
  return Buffer.from(await crc.digest());
}

/** The checksum S3 keeps for `bytes` uploaded by `algorithm`, single PUT or in parts of {@link PART_SIZE}, as `ObjectChecksum`. */
async function expectedChecksum(algorithm: ChecksumAlgorithm, bytes: Uint8Array, multipart: boolean) {
  const encode = (value: Buffer) => (algorithm === 'md5' ? value.toString('hex') : value.toString('base64'));
  if (!multipart || algorithm === 'crc64nvme') return { algorithm, type: 'full-object', value: encode(await digest(algorithm, bytes)) };
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += PART_SIZE) parts.push(await digest(algorithm, bytes.subarray(start, start + PART_SIZE)));
  return { algorithm, type: 'composite', value: `${encode(await digest(algorithm, Buffer.concat(parts)))}-${parts.length}` };
}

const S3_NAMES = { crc32c: 'ChecksumCRC32C', crc64nvme: 'ChecksumCRC64NVME', sha256: 'ChecksumSHA256' } as const;

/** What storage reports of the object: its checksum (checksum mode; the ETag for MD5) and a digest of its bytes. */
async function stored(key: string, algorithm: ChecksumAlgorithm) {
  const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key, ChecksumMode: 'ENABLED' }));
  const object = await admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
  const sha256 = createHash('sha256').update(await object.Body!.transformToByteArray()).digest('hex');
  const value = algorithm === 'md5' ? head.ETag?.replaceAll('"', '') : head[S3_NAMES[algorithm]];
  return { value, type: head.ChecksumType, sha256 };
}

beforeAll(async () => {
  storage = await startLocalS3();
  admin = storage.createClient();
  const settings = { ...storage.handlerSettings, stsClient: storage.stsClient };
  const handler = toNodeHandler(createUploadHandler(settings));
  const onceHandler = toNodeHandler(createUploadHandler({ ...settings, conditionalWrites: true, key: () => FIXED_KEY }));
  const routeHandler = toNodeHandler(createUploadHandler({ ...settings, checksum: 'crc64nvme' }));
  // The same storage through the fault proxy, with If-None-Match: faults on chosen requests.
  proxy = await startFaultProxy({ target: storage.endpoint });
  const proxiedHandler = toNodeHandler(createUploadHandler({ ...settings, endpoint: proxy.url, conditionalWrites: true }));
  // The client as an app's bundler makes it (its lazy chunks inlined), and its hash worker beside it.
  const build = (entry: string) =>
    execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), [entry, '--bundle', '--format=esm', '--platform=browser'], {
      cwd: PACKAGE,
      encoding: 'utf8',
      maxBuffer: 64 * MiB,
    });
  const bundle = build('src/index.ts');
  const worker = build('src/hash-worker.ts');
  page = createServer((request, response) => {
    if (request.url === '/api/s3-upload') return void handler(request, response);
    if (request.url === '/api/once-upload') return void onceHandler(request, response);
    if (request.url === '/api/crc64-upload') return void routeHandler(request, response);
    if (request.url === '/api/proxied-upload') return void proxiedHandler(request, response);
    if (request.url === '/client.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    if (request.url === '/hash-worker.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><script type="module">import * as client from "/client.js"; window.client = client;</script>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launchChromiumContext();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  page?.close();
  admin?.destroy();
  await proxy?.close();
  await storage?.close();
});

type Outcome = { result: UploadResult } | { error: { code?: string; status?: number; message: string } };

/** Uploads files of the given sizes one after another from a fresh page with `uploadFile(file, options)`. */
async function uploadInPage(sizes: number[], options: Record<string, unknown>): Promise<Outcome[]> {
  const tab = await browser.context.newPage();
  try {
    await tab.goto(origin);
    await tab.waitForFunction(() => 'client' in window);
    return (await tab.evaluate(
      async ({ sizes, options }) => {
        type Client = typeof import('../src/index');
        const { uploadFile } = (window as unknown as { client: Client }).client;
        const outcomes = [];
        for (const size of sizes) {
          const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);
          try {
            const file = new File([bytes], 'checked.bin', { type: 'application/octet-stream' });
            outcomes.push({ result: await uploadFile(file, { strategy: 'temporary-token', multipartThreshold: 5 * 1024 * 1024, ...options }) });
          } catch (error) {
            const { code, status, message } = error as { code?: string; status?: number; message: string };
            outcomes.push({ error: { code, status, message } });
          }
        }
        return outcomes;
      },
      { sizes, options },
    )) as Outcome[];
  } finally {
    await tab.close();
  }
}

const resultOf = (outcome: Outcome | undefined): UploadResult => {
  if (!outcome || 'error' in outcome) throw new Error(`upload failed: ${JSON.stringify(outcome)}`);
  return outcome.result;
};

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('temporary-token checksums in chromium against local-s3', () => {
  it.each(['crc32c', 'crc64nvme', 'sha256', 'md5'] as const)(
    '%s: a single PUT and a multipart upload of 3 parts; the checksum storage keeps is the result\'s and the reference',
    async (algorithm) => {
      const [single, multipart] = (await uploadInPage([SINGLE_SIZE, MULTIPART_SIZE], { checksum: algorithm })).map(resultOf);
      for (const [result, size, isMultipart] of [
        [single!, SINGLE_SIZE, false],
        [multipart!, MULTIPART_SIZE, true],
      ] as const) {
        const bytes = fileBytes(size);
        const expected = await expectedChecksum(algorithm, bytes, isMultipart);
        expect(result.checksum, `${isMultipart ? 'multipart' : 'single PUT'}`).toEqual(expected);
        const object = await stored(result.key, algorithm);
        expect(object.sha256).toBe(sha256Hex(bytes));
        expect(object.value).toBe(expected.value);
        if (algorithm !== 'md5') expect(object.type).toBe(expected.type === 'full-object' ? 'FULL_OBJECT' : 'COMPOSITE');
      }
    },
  );

  it('no option: the token answer\'s checksum (the handler\'s crc64nvme) is sent; checksum: false sends none', async () => {
    const endpoint = { url: '/api/crc64-upload' };
    const [single, multipart] = (await uploadInPage([SINGLE_SIZE, MULTIPART_SIZE], { endpoint })).map(resultOf);
    for (const [result, size] of [
      [single!, SINGLE_SIZE],
      [multipart!, MULTIPART_SIZE],
    ] as const) {
      const expected = await expectedChecksum('crc64nvme', fileBytes(size), size === MULTIPART_SIZE);
      expect(result.checksum).toEqual(expected);
      expect((await stored(result.key, 'crc64nvme')).value).toBe(expected.value);
    }
    const [none] = (await uploadInPage([SINGLE_SIZE], { endpoint, checksum: false })).map(resultOf);
    expect(none!.checksum).toBeUndefined();
    expect((await stored(none!.key, 'crc64nvme')).value).toBeUndefined();
  });

  it('If-None-Match (the handler\'s conditionalWrites): a second upload to the same key is refused, single PUT and multipart; the first stays', async () => {
    const endpoint = { url: '/api/once-upload' };
    const [first, again] = await uploadInPage([SINGLE_SIZE, SINGLE_SIZE], { endpoint, checksum: 'crc32c' });
    expect(resultOf(first).key).toBe(FIXED_KEY);
    const refusal = { code: 'STORAGE_ERROR', status: 412, message: 'An object already exists under this key (storage refuses to overwrite it).' };
    expect(again).toEqual({ error: refusal });
    const [multipart] = await uploadInPage([MULTIPART_SIZE], { endpoint, checksum: 'crc64nvme' });
    expect(multipart).toEqual({ error: refusal });
    // The refused multipart upload was aborted; the object is the first upload's.
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket, Prefix: FIXED_KEY }));
    expect(Uploads).toEqual([]);
    expect((await stored(FIXED_KEY, 'crc32c')).sha256).toBe(sha256Hex(fileBytes(SINGLE_SIZE)));
  });
});

/** Storage's answers to the requests of `operation` the proxy forwarded (or answered itself), in order: `fault:status`. */
const answers = (operation: string) =>
  proxy
    .requests()
    .filter((request) => request.operation === operation)
    .map((request) => `${request.fault ?? 'plain'}:${request.storageStatus ?? 'none'}`);

describe('temporary-token checksums through the fault proxy (local-s3 behind it)', () => {
  const endpoint = { url: '/api/proxied-upload' };

  it('resume with crc32c: part 3 refused once ends the first run; the second sends part 3 only and its Complete lists parts 1 and 2 hashed again', async () => {
    proxy.reset();
    proxy.inject('error-500', (request) => request.operation === 'UploadPart' && request.query.get('partNumber') === '3');
    const tab = await browser.context.newPage();
    try {
      await tab.goto(origin);
      await tab.waitForFunction(() => 'client' in window);
      const runs = await tab.evaluate(
        async ({ size, endpoint }) => {
          type Client = typeof import('../src/index');
          const { uploadFile } = (window as unknown as { client: Client }).client;
          const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);
          const file = new File([bytes], 'resumed.bin', { type: 'application/octet-stream', lastModified: 1 });
          // One part at a time, so that parts 1 and 2 are stored before part 3 fails.
          const options = { strategy: 'temporary-token', endpoint, checksum: 'crc32c', resume: true, queueSize: 1, multipartThreshold: 5 * 1024 * 1024 } as const;
          const first = await uploadFile(file, { ...options, maxAttempts: 1 }).then(
            () => 'stored',
            (error: { answerCode?: string }) => error.answerCode,
          );
          return { first, second: await uploadFile(file, options) };
        },
        { size: MULTIPART_SIZE, endpoint },
      );
      expect(runs.first).toBe('InternalError');
      expect(answers('UploadPart')).toEqual(['plain:200', 'plain:200', 'error-500:none', 'plain:200']);
      expect(answers('CreateMultipartUpload')).toEqual(['plain:200']);
      const expected = await expectedChecksum('crc32c', fileBytes(MULTIPART_SIZE), true);
      expect(runs.second.checksum).toEqual(expected);
      const object = await stored(runs.second.key, 'crc32c');
      expect(object).toEqual({ value: expected.value, type: 'COMPOSITE', sha256: sha256Hex(fileBytes(MULTIPART_SIZE)) });
    } finally {
      await tab.close();
    }
  });

  // A lost CompleteMultipartUpload answer is left to the session's unit tests (412 or NoSuchUpload after an
  // unanswered attempt count as done): local-s3 sends its NoSuchUpload 404 to a Complete without CORS headers,
  // which a page cannot read (a NETWORK_ERROR), where S3 sends them.
  it('If-None-Match after a lost answer: the retried PutObject answered 412 counts as stored', async () => {
    proxy.reset();
    // Storage stores the object; the browser gets a broken answer and sends the request again.
    proxy.inject('truncate', (request) => request.operation === 'PutObject');
    const [single] = (await uploadInPage([SINGLE_SIZE], { endpoint, checksum: 'crc64nvme' })).map(resultOf);
    expect(answers('PutObject')).toEqual(['truncate:200', 'plain:412']);
    const expected = await expectedChecksum('crc64nvme', fileBytes(SINGLE_SIZE), false);
    expect(single!.checksum).toEqual(expected);
    expect(await stored(single!.key, 'crc64nvme')).toMatchObject({ value: expected.value, sha256: sha256Hex(fileBytes(SINGLE_SIZE)) });
  });
});
