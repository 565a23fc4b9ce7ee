import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import type { TemporaryTokenUploadResponse } from '@upbeam/upload-protocol';
import { createUploadHandler } from '@upbeam/upload-server';
import { launchChromiumContext, type ChromiumContext } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The token session in a real browser (Debian's chromium): its own requests go with XMLHttpRequest, the
// page signs PUTs of the file and of parts, and every request is cross-origin (page and storage on
// different ports), so radosgw's CORS preflights for `Authorization` and `x-amz-*` headers are exercised.

const connection = inject('radosgw');
const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 1024 * 1024;
const MINUTE = 60_000;
const bucket = `browser-token-${Date.now().toString(36)}`;

let admin: S3Client;
let roleArn: string;
let browser: ChromiumContext;
let page: Server;
let origin: string;

/** Byte `i` of the test file: the page and the test build the same bytes. */
const fileBytes = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);

beforeAll(async () => {
  if (!connection) return;
  await createBucket(connection, bucket, { allowedOrigins: ['*'] });
  roleArn = await createUploadRole(connection);
  admin = radosgwS3Client(connection);
  // The lazy chunk of the temporary-token path, as a bundler would make it.
  const bundle = execFileSync(join(PACKAGE, 'node_modules/.bin/esbuild'), ['src/temporary-token/token/index.ts', '--bundle', '--format=esm', '--platform=browser'], {
    cwd: PACKAGE,
    encoding: 'utf8',
  });
  page = createServer((request, response) => {
    if (request.url === '/token.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><script type="module">import * as token from "/token.js"; window.token = token;</script>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launchChromiumContext();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  page?.close();
  admin?.destroy();
});

/** Credentials from the upload handler (AssumeRole, one-key policy) for `filename`, or for `key` again. */
async function prepare(filename: string, key?: string): Promise<TemporaryTokenUploadResponse> {
  const handler = createUploadHandler({ ...tokenHandlerSettings(connection!, bucket, roleArn), ...(key ? { key: () => key } : {}) });
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename, filetype: 'application/octet-stream', _upload: { strategy: 'temporary-token' } }),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as TemporaryTokenUploadResponse;
}

/** A fresh page with the token chunk loaded and `renewCredentials(ticket)` answered by the handler here. */
async function openPage(prepared: TemporaryTokenUploadResponse) {
  const tab = await browser.context.newPage();
  await tab.exposeFunction('renewCredentials', async () => ({ ...(await prepare('renewed', prepared.key)), ticket: 'ticket-2' }));
  await tab.goto(origin);
  await tab.waitForFunction(() => 'token' in window);
  return tab;
}

/** The answer as a server without `serverTime` gives it (before renewal tickets): the clock is not corrected at preparation. */
const withoutServerTime = ({ serverTime: _serverTime, ...prepared }: TemporaryTokenUploadResponse): TemporaryTokenUploadResponse => prepared;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.skipIf(!connection)('token session in chromium against radosgw (cross-origin XHR)', () => {
  it('PutObject, and a multipart upload of 2 parts, byte-identical; ListParts is "cannot list"; abort', async () => {
    const prepared = await prepare('browser.bin');
    const tab = await openPage(prepared);
    const size = 5 * MiB + 1000;
    const result = await tab.evaluate(
      async ({ prepared, size }) => {
        type Token = typeof import('../src/temporary-token/token/index');
        const { createTokenSession } = (window as unknown as { token: Token }).token;
        const put = (url: string, headers: Record<string, string>, body: Blob) =>
          new Promise<XMLHttpRequest>((resolve, reject) => {
            const xhr = new XMLHttpRequest();
            xhr.open('PUT', url);
            for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
            xhr.onload = () => resolve(xhr);
            xhr.onerror = () => reject(new Error(`no answer from ${url}`));
            xhr.send(body);
          });
        const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31) % 251);
        const session = createTokenSession({ prepared, renew: (window as unknown as { renewCredentials: never }).renewCredentials });
        const single = await session.signPutObject('application/octet-stream');
        const putStatus = (await put(single.url, single.headers, new Blob([bytes.subarray(0, 1000)]))).status;

        const uploadId = await session.createMultipartUpload('application/octet-stream');
        const parts = [];
        for (const [index, chunk] of [bytes.subarray(0, 5 * 1024 * 1024), bytes.subarray(5 * 1024 * 1024)].entries()) {
          const signed = await session.signUploadPart(uploadId, index + 1);
          const xhr = await put(signed.url, signed.headers, new Blob([chunk]));
          parts.push({ partNumber: index + 1, etag: xhr.getResponseHeader('ETag') ?? 'missing' });
        }
        const listed = await session.listParts(uploadId);
        const { etag } = await session.completeMultipartUpload(uploadId, parts);

        const aborted = await session.createMultipartUpload('application/octet-stream');
        await session.abortMultipartUpload(aborted);
        return { putStatus, parts, listed: listed ?? 'cannot list', etag: etag ?? 'unsaid' };
      },
      { prepared, size },
    );
    expect(result.putStatus).toBe(200);
    expect(result.parts.map((part) => part.etag)).toEqual([expect.stringMatching(/^"[\da-f]{32}"$/), expect.stringMatching(/^"[\da-f]{32}"$/)]);
    expect(result.listed).toBe('cannot list');
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: prepared.key }));
    expect(object.ETag).toMatch(/-2"$/);
    expect(object.CacheControl).toBe('max-age=630720000, public');
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(fileBytes(size)));
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prepared.key }));
    expect(Uploads).toEqual([]);
    await tab.close();
  });

  it('a clock 10 minutes ahead is corrected from serverTime; credentials about to expire are renewed', async () => {
    const first = await prepare('clock.bin');
    const soon = new Date(Date.now() + 30_000).toISOString();
    const prepared = { ...first, ticket: 'ticket-1', serverTime: new Date().toISOString(), token: { Credentials: { ...first.token.Credentials, Expiration: soon } } };
    const tab = await openPage(prepared);
    const result = await tab.evaluate(
      async ({ prepared, ahead }) => {
        type Token = typeof import('../src/temporary-token/token/index');
        const { createTokenSession } = (window as unknown as { token: Token }).token;
        const renew = (window as unknown as { renewCredentials: (ticket: string) => Promise<never> }).renewCredentials;
        const session = createTokenSession({ prepared, renew, now: () => Date.now() + ahead });
        const uploadId = await session.createMultipartUpload('text/plain');
        await session.abortMultipartUpload(uploadId);
        return { ticket: session.prepared.ticket };
      },
      { prepared, ahead: 10 * MINUTE },
    );
    expect(result.ticket).toBe('ticket-2');
    await tab.close();
  });

  // Measured: radosgw 16.2 sends its RequestTimeTooSkewed 403 without CORS headers (its AccessDenied 403
  // has them), so a page cannot read it: the endpoint's serverTime is what corrects a browser's clock there.
  it('a clock 20 minutes behind: corrected by serverTime; without it, radosgw\'s refusal is unreadable (NETWORK_ERROR)', async () => {
    const prepared = withoutServerTime(await prepare('behind.bin'));
    const tab = await openPage(prepared);
    const result = await tab.evaluate(
      async ({ prepared, behind, serverTime }) => {
        type Token = typeof import('../src/temporary-token/token/index');
        const { createTokenSession } = (window as unknown as { token: Token }).token;
        const renew = (window as unknown as { renewCredentials: (ticket: string) => Promise<never> }).renewCredentials;
        const attempt = async (answer: typeof prepared) => {
          const session = createTokenSession({ prepared: answer, renew, now: () => Date.now() - behind, retry: { maxAttempts: 1 } });
          try {
            await session.abortMultipartUpload(await session.createMultipartUpload('text/plain'));
            return 'created';
          } catch (error) {
            return (error as { code?: string }).code;
          }
        };
        return { withServerTime: await attempt({ ...prepared, serverTime }), without: await attempt(prepared) };
      },
      { prepared, behind: 20 * MINUTE, serverTime: new Date().toISOString() },
    );
    expect(result).toEqual({ withServerTime: 'created', without: 'NETWORK_ERROR' });
    await tab.close();
  });
});
