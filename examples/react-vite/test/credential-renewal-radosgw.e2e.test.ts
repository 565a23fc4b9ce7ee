import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { startFaultProxy, type FaultProxy } from '@upbeam/fault-proxy';
import { launchChromiumContext, openChromiumPage, type ChromiumContext } from '@upbeam/test-browser';
import { createUploadHandler, type UploadHandler } from '@upbeam/upload-server';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { sha256, waitForUpload } from './fault-upload';
import { logParts, waitUntil } from './multipart-parts';
import { SELECTORS } from './selectors';

// Credentials and signatures that run out during an upload, in chromium against Ceph radosgw (SPEC 9):
// temporary credentials renewed inside the 60-second refresh window through the endpoint's `_upload.renew`,
// and a presigned part URL that expired on its way to storage signed again.

const connection = inject('radosgw');
const MiB = 1024 * 1024;
/** 5 parts (4 of 5 MiB, 1 of 1 MiB): the fifth is signed once one of the first four is stored. */
const TOKEN_FILE_SIZE = 21 * MiB + 7;
const TOKEN_PARTS = 5;
/** The shortest lifetime radosgw's AssumeRole grants (DurationSeconds 900). */
const TOKEN_SECONDS = 900;
/** The page's clock jumps this far mid-upload: the credentials then expire in under 60 s by its clock. */
const CLOCK_JUMP_MS = 850_000;
/** Presigned multipart starts at 32 MiB on the example page: 7 parts of 5 MiB. */
const PRESIGNED_FILE_SIZE = 33 * MiB + 3;
const PRESIGNED_PARTS = 7;

let example: RunningExample;
let browser: ChromiumContext;
let admin: S3Client;
let roleArn: string;
let dir: string;
const bucket = `renew-${Date.now().toString(36)}`;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  if (!connection) return;
  [example, browser] = await Promise.all([startExample(), launchChromiumContext()]);
  await createBucket(connection, bucket, { allowedOrigins: [example.origin] });
  roleArn = await createUploadRole(connection);
  admin = radosgwS3Client(connection);
  dir = await mkdtemp(join(tmpdir(), 'upbeam-rgw-renew-'));
});

afterAll(async () => {
  admin?.destroy();
  await browser?.close();
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What the page's endpoint was asked: preparations, and `_upload.renew` among them. */
interface EndpointCounts {
  prepares: number;
  renewals: number;
}

/** Serves `handler` as the page's endpoint, counting the requests whose body asks `_upload.renew`. */
function countingHandler(handler: UploadHandler): EndpointCounts {
  const counts: EndpointCounts = { prepares: 0, renewals: 0 };
  example.setUploadHandler(async (request) => {
    const body = (await request
      .clone()
      .json()
      .catch(() => undefined)) as { _upload?: { renew?: unknown } } | undefined;
    counts.prepares += 1;
    if (body?._upload?.renew) counts.renewals += 1;
    return handler(request);
  });
  return counts;
}

async function writeRandomFile(name: string, size: number): Promise<{ path: string; bytes: Buffer }> {
  const bytes = randomBytes(size);
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, bytes };
}

/** The access key id a storage request was signed with (SigV4 `Credential=AKID/...`), from its headers. */
async function accessKeyOf(request: Request): Promise<string | undefined> {
  const authorization = (await request.allHeaders())['authorization'] ?? '';
  return /Credential=([^/]+)\//.exec(authorization)?.[1];
}

/**
 * A page of the example whose `Date.now()` runs `window.clockAhead` milliseconds ahead (0 at first), with
 * uploads throttled to `uploadBytesPerSecond` (chromium's network emulation).
 */
async function openPageWithMovableClock(uploadBytesPerSecond: number): Promise<Page> {
  const page = await browser.context.newPage();
  await page.addInitScript(() => {
    const now = Date.now.bind(Date);
    const page = window as unknown as { clockAhead: number };
    page.clockAhead = 0;
    Date.now = () => now() + page.clockAhead;
  });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: uploadBytesPerSecond,
  });
  await page.goto(example.origin);
  return page;
}

async function incompleteUploads(): Promise<unknown[]> {
  const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return Uploads;
}

describe.skipIf(!connection)('credentials and signatures running out mid-upload, chromium, radosgw', () => {
  it('temporary-token: credentials that come within 60 s of expiring are renewed through `_upload.renew`, the upload completes', async () => {
    const counts = countingHandler(
      createUploadHandler({ ...tokenHandlerSettings(connection!, bucket, roleArn), tokenDurationSeconds: TOKEN_SECONDS }),
    );
    const file = await writeRandomFile('long.bin', TOKEN_FILE_SIZE);
    // 4 MiB/s: the file takes ~5 s, the first four parts sharing the bandwidth.
    const page = await openPageWithMovableClock(4 * MiB);
    const parts = logParts(page);
    // The access key each storage request of the multipart upload was signed with, in order of sending.
    const signedWith: { url: string; method: string; accessKey: Promise<string | undefined> }[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(connection!.endpoint) && request.method() !== 'OPTIONS') {
        signedWith.push({ url: request.url(), method: request.method(), accessKey: accessKeyOf(request) });
      }
    });
    await page.getByLabel('Temporary token (multipart)').check();
    await page.setInputFiles(SELECTORS.fileInput, file.path);
    // Once the first parts are on their way (signed with the first credentials, valid 900 s), 850 s pass
    // by the page's clock: the credentials expire in under 60 s, so the next signature renews them.
    await waitUntil(() => parts.sent.length >= 1, 60_000, 'a part sent');
    await page.evaluate((ahead) => {
      (window as unknown as { clockAhead: number }).clockAhead = ahead;
    }, CLOCK_JUMP_MS);

    const outcome = await waitForUpload(page, 'long.bin', 90_000);
    const error = page.locator(SELECTORS.error);
    expect(outcome.status, (await error.count()) ? String(await error.textContent()) : '').toBe('done');
    parts.stop();
    expect(counts.renewals).toBe(1);
    expect(counts.prepares).toBe(2);
    // The first part went with the first credentials, CompleteMultipartUpload with the renewed ones.
    const keys = await Promise.all(signedWith.map(async (entry) => ({ ...entry, accessKey: await entry.accessKey })));
    const firstPart = keys.find((entry) => entry.method === 'PUT' && entry.url.includes('partNumber='));
    const complete = keys.find((entry) => entry.method === 'POST' && entry.url.includes('uploadId='));
    expect(firstPart?.accessKey).toBeDefined();
    expect(complete?.accessKey).toBeDefined();
    expect(complete!.accessKey).not.toBe(firstPart!.accessKey);
    // Every part was stored once: none was refused for expired credentials.
    expect([...parts.sent].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);

    const key = decodeURIComponent(outcome.url!.slice(`${connection!.endpoint}/${bucket}/`.length));
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ETag).toMatch(new RegExp(`-${TOKEN_PARTS}"$`));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(file.bytes));
    expect(await incompleteUploads()).toEqual([]);
    await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    await page.close();
  });

  it('presigned multipart: a part URL that expired on its way (403, no CORS headers) is signed again and the part sent again', async () => {
    const proxy = await startFaultProxy({ target: connection!.endpoint });
    proxies.push(proxy);
    // URLs valid 2 s; the proxy holds the first UploadPart 3.5 s, so radosgw refuses it as expired.
    countingHandler(
      createUploadHandler({ ...tokenHandlerSettings(connection!, bucket, roleArn), endpoint: proxy.url, expiresIn: 2 }),
    );
    proxy.inject({ kind: 'delay', delayMs: 3500 }, (request) => request.operation === 'UploadPart');
    const file = await writeRandomFile('expiring.bin', PRESIGNED_FILE_SIZE);
    const page = await openChromiumPage(browser.context, example.origin, -1);
    await page.setInputFiles(SELECTORS.fileInput, file.path);

    const outcome = await waitForUpload(page, 'expiring.bin', 90_000);
    const error = page.locator(SELECTORS.error);
    expect(outcome.status, (await error.count()) ? String(await error.textContent()) : '').toBe('done');
    const uploadParts = proxy.requests().filter((request) => request.operation === 'UploadPart');
    const delayed = uploadParts.filter((request) => request.fault === 'delay');
    expect(delayed.map((request) => request.storageStatus)).toEqual([403]);
    // The same part (same upload id and part number) sent again to a fresh URL, and stored.
    const again = uploadParts.filter((request) => request.seq > delayed[0]!.seq && request.identity === delayed[0]!.identity);
    expect(again.map((request) => [request.repeat, request.storageStatus])).toEqual([[true, 200]]);
    expect(uploadParts.filter((request) => request.storageStatus === 200).length).toBe(PRESIGNED_PARTS);

    const key = decodeURIComponent(outcome.url!.slice(`${proxy.url}/${bucket}/`.length));
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ETag).toMatch(new RegExp(`-${PRESIGNED_PARTS}"$`));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(file.bytes));
    expect(await incompleteUploads()).toEqual([]);
    await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    await page.close();
  });
});
