import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeleteObjectCommand, GetObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { startFaultProxy, type FaultProxy } from '@upbeam/fault-proxy';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { launchChromiumContext, type ChromiumContext } from '@upbeam/test-browser';
import type { UploadResult } from '@upbeam/upload-protocol';
import { createUploadHandler } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// Checksums end to end, in chromium against Ceph radosgw through the fault proxy: `uploadFile` with
// `checksum: 'md5'` sends each part's (and a single PUT's) `Content-MD5`; the proxy inverts a byte of one
// PUT's body; radosgw refuses it (400 BadDigest); the client sends it again; the stored object is
// byte-identical and the result's checksum is the object's (its ETag). A control upload without a
// checksum shows that the same fault is otherwise stored silently.
//
// The default comes from the server: a handler with `provider: 'ceph'` (its own route) asks for `'md5'` in
// its answers, so an upload without the option sends Content-MD5 and returns the object's checksum; the
// client's `checksum: false` asks for none, but the route's is signed into its URL (issue 46). A handler on s3rver
// (an endpoint, no provider) asks for none.

const connection = inject('radosgw');
const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
/** 3 parts of 5 MiB (the last one short). */
const MULTIPART_SIZE = 10 * MiB + 4099;
const SINGLE_SIZE = 1 * MiB + 17;
const bucket = `checksum-${Date.now().toString(36)}`;

let admin: S3Client;
let browser: ChromiumContext;
let page: Server;
let origin: string;
let proxy: FaultProxy;
let s3rver: LocalS3;

/** Byte `i` of a test file: the page and the test build the same bytes. */
const fileBytes = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  if (!connection) return;
  await createBucket(connection, bucket, { allowedOrigins: ['*'] });
  const roleArn = await createUploadRole(connection);
  admin = radosgwS3Client(connection);
  proxy = await startFaultProxy({ target: connection.endpoint });
  // The same storage, through the proxy: without a provider (a custom endpoint: no checksum by default),
  // and as `provider: 'ceph'` (radosgw verifies Content-MD5: checksum on by default).
  const settings = { ...tokenHandlerSettings(connection, bucket, roleArn), endpoint: proxy.url };
  const handler = toNodeHandler(createUploadHandler(settings));
  const cephHandler = toNodeHandler(createUploadHandler({ ...settings, provider: 'ceph' }));
  s3rver = await startLocalS3();
  const s3rverHandler = toNodeHandler(createUploadHandler({ ...s3rver.handlerSettings, stsClient: s3rver.stsClient }));
  // The client as an app's bundler makes it (its lazy chunks and hash-wasm inlined).
  const bundle = execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), ['src/index.ts', '--bundle', '--format=esm', '--platform=browser'], {
    cwd: PACKAGE,
    encoding: 'utf8',
    maxBuffer: 64 * MiB,
  });
  page = createServer((request, response) => {
    if (request.url === '/api/s3-upload') return void handler(request, response);
    if (request.url === '/api/ceph-upload') return void cephHandler(request, response);
    if (request.url === '/api/s3rver-upload') return void s3rverHandler(request, response);
    if (request.url === '/client.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
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
  await proxy?.close();
  await s3rver?.close();
  admin?.destroy();
});

/** Uploads a file of `size` test bytes from a fresh page with `uploadFile(file, options)`. */
async function uploadInPage(size: number, options: Record<string, unknown>) {
  const tab = await browser.context.newPage();
  await tab.goto(origin);
  await tab.waitForFunction(() => 'client' in window);
  const outcome = await tab.evaluate(
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
  );
  await tab.close();
  return outcome as { result: UploadResult; retries: string[] };
}

async function stored(key: string) {
  const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const bytes = await object.Body!.transformToByteArray();
  await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  return { etag: object.ETag, bytes };
}

/** Storage's answers to the PUTs of `operation` the proxy forwarded, in order. */
const answers = (operation: string) =>
  proxy
    .requests()
    .filter((request) => request.operation === operation)
    .map((request) => `${request.fault ?? 'plain'}:${request.storageStatus}`);

const strategies = ['presigned', 'temporary-token'] as const;

describe.skipIf(!connection)('checksum: md5 in chromium against radosgw, a byte flipped on the way', () => {
  it.each(strategies)('%s multipart: the flipped part is refused (BadDigest), sent again, stored byte-identical', async (strategy) => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'UploadPart' && request.query.get('partNumber') === '2');
    const { result, retries } = await uploadInPage(MULTIPART_SIZE, { strategy, checksum: 'md5', multipartThreshold: 5 * MiB });
    expect(proxy.injected()['flip-byte']).toBe(1);
    expect(answers('UploadPart')).toContain('flip-byte:400');
    expect(retries).toEqual(['BadDigest']);
    const bytes = fileBytes(MULTIPART_SIZE);
    const object = await stored(result.key);
    expect(sha256(object.bytes)).toBe(sha256(bytes));
    const parts = [bytes.subarray(0, 5 * MiB), bytes.subarray(5 * MiB, 10 * MiB), bytes.subarray(10 * MiB)];
    const composite = `${md5(Buffer.concat(parts.map(md5))).toString('hex')}-3`;
    expect(result.checksum).toEqual({ algorithm: 'md5', type: 'composite', value: composite });
    expect(object.etag).toBe(`"${composite}"`);
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect(Uploads).toEqual([]);
  });

  it.each(strategies)('%s single PUT: refused (BadDigest), sent again, stored byte-identical, full-object MD5', async (strategy) => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'PutObject');
    const { result, retries } = await uploadInPage(SINGLE_SIZE, { strategy, checksum: 'md5' });
    expect(answers('PutObject')).toEqual(['flip-byte:400', 'plain:200']);
    expect(retries).toEqual(['BadDigest']);
    const bytes = fileBytes(SINGLE_SIZE);
    const object = await stored(result.key);
    expect(sha256(object.bytes)).toBe(sha256(bytes));
    expect(result.checksum).toEqual({ algorithm: 'md5', type: 'full-object', value: md5(bytes).toString('hex') });
  });

  it('control, no checksum (a handler on a custom endpoint without provider asks for none): the same flipped byte is stored as sent', async () => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'PutObject');
    const { result, retries } = await uploadInPage(SINGLE_SIZE, { strategy: 'presigned' });
    expect(answers('PutObject')).toEqual(['flip-byte:200']);
    expect(retries).toEqual([]);
    expect(result.checksum).toBeUndefined();
    const object = await stored(result.key);
    expect(sha256(object.bytes)).not.toBe(sha256(fileBytes(SINGLE_SIZE)));
  });
});

describe.skipIf(!connection)('checksum by default: the server decides (provider ceph: on; s3rver: off), the client can refuse', () => {
  const ceph = { endpoint: { url: '/api/ceph-upload' } };

  // The flipped byte shows that Content-MD5 was sent and verified (radosgw refuses it: BadDigest).
  it.each(strategies)('%s single PUT, no option: Content-MD5 sent and verified, result.checksum is the ETag', async (strategy) => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'PutObject');
    const { result, retries } = await uploadInPage(SINGLE_SIZE, { ...ceph, strategy });
    expect(answers('PutObject')).toEqual(['flip-byte:400', 'plain:200']);
    expect(retries).toEqual(['BadDigest']);
    const value = md5(fileBytes(SINGLE_SIZE)).toString('hex');
    expect(result.checksum).toEqual({ algorithm: 'md5', type: 'full-object', value });
    expect((await stored(result.key)).etag).toBe(`"${value}"`);
  });

  it.each(strategies)('%s multipart, no option: each part verified, result.checksum is the ETag', async (strategy) => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'UploadPart' && request.query.get('partNumber') === '2');
    const { result, retries } = await uploadInPage(MULTIPART_SIZE, { ...ceph, strategy, multipartThreshold: 5 * MiB });
    expect(answers('UploadPart')).toContain('flip-byte:400');
    expect(retries).toEqual(['BadDigest']);
    expect(result.checksum).toMatchObject({ algorithm: 'md5', type: 'composite' });
    const object = await stored(result.key);
    expect(object.etag).toBe(`"${result.checksum!.value}"`);
    expect(sha256(object.bytes)).toBe(sha256(fileBytes(MULTIPART_SIZE)));
  });

  // Since issue 46 the route's checksum is signed into the URL: a client cannot drop it. `false` asks for none;
  // the route answers CHECKSUM_REQUIRED and the client hashes with the route's algorithm.
  it("checksum: false on the client asks for none, but the route's MD5 is signed into the URL: the flipped byte is refused and sent again", async () => {
    proxy.reset();
    proxy.inject('flip-byte', (request) => request.operation === 'PutObject');
    const { result, retries } = await uploadInPage(SINGLE_SIZE, { ...ceph, strategy: 'presigned', checksum: false });
    expect(answers('PutObject')).toEqual(['flip-byte:400', 'plain:200']);
    expect(retries).toEqual(['BadDigest']);
    expect(result.checksum).toEqual({ algorithm: 'md5', type: 'full-object', value: md5(fileBytes(SINGLE_SIZE)).toString('hex') });
    const object = await stored(result.key);
    expect(sha256(object.bytes)).toBe(sha256(fileBytes(SINGLE_SIZE)));
  });

  it('s3rver behind an endpoint, no provider: the server asks for no checksum, none is sent', async () => {
    const { result } = await uploadInPage(SINGLE_SIZE, { endpoint: { url: '/api/s3rver-upload' }, strategy: 'presigned' });
    expect(result.checksum).toBeUndefined();
    expect(result.url.startsWith(s3rver.endpoint)).toBe(true);
  });
});
