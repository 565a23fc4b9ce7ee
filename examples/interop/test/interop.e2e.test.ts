import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket, type RadosgwBucket } from '@upbeam/ceph-rgw';
import { launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { NextS3UploadOutcome } from '../page/next-s3-upload';
import type { UppyOutcome, UppyUploadInput } from '../page/uppy';
import { startInteropServer, type InteropServer } from './interop-server';

// Migration, in chromium, against storage on another origin: next-s3-upload's own client (0.3.4, unchanged)
// and Uppy (@uppy/core 5 + @uppy/aws-s3 5, with the adapter of @upbeam/upload-client/uppy), each talking
// to a real createUploadHandler at /api/s3-upload. s3rver for the uploads; Ceph radosgw for what s3rver
// lacks (ListParts for a resume, AbortMultipartUpload for a cancel).

const radosgw = inject('radosgw');

const MiB = 1024 * 1024;
/** Three parts of 5 MiB, 5 MiB and 2 MiB + 321 bytes. */
const LARGE = 12 * MiB + 321;

let server: InteropServer;
let s3: S3Client;
let browser: TestBrowser;
let page: TestPage | undefined;
let dir: string;
const files: Record<'photo' | 'page' | 'large', { path: string; bytes: Buffer }> = {} as never;

beforeAll(async () => {
  server = await startInteropServer();
  s3 = server.storage.createClient();
  browser = await launchBrowser('chromium');
  dir = await mkdtemp(join(tmpdir(), 'upbeam-interop-files-'));
  for (const [name, file, size] of [
    ['photo', 'holiday photo.jpg', 3 * MiB + 7],
    ['page', 'index.html', 2048],
    ['large', 'dataset.bin', LARGE],
  ] as const) {
    const bytes = randomBytes(size);
    files[name] = { path: join(dir, file), bytes };
    await writeFile(files[name].path, bytes);
  }
});

afterAll(async () => {
  s3?.destroy();
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await page?.close();
  page = undefined;
  server.configure({});
  server.handled.length = 0;
});

async function openPage(name: 'next-s3-upload' | 'uppy', file: keyof typeof files): Promise<TestPage> {
  page = await browser.newPage();
  await page.goto(`${server.origin}/${name}.html`);
  await page.setInputFile('#file', files[file].path);
  return page;
}

async function stored(key: string, client = s3, bucket = server.storage.bucket) {
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return { object, bytes: Buffer.from(await object.Body!.transformToByteArray()) };
}

/** The object key in a stored object's URL `{endpoint}/{bucket}/{key}`. */
function keyOf(url: string | undefined, endpoint = server.storage.endpoint, bucket = server.storage.bucket): string {
  const prefix = `${endpoint}/${bucket}/`;
  expect(url?.startsWith(prefix), String(url)).toBe(true);
  return decodeURIComponent(url!.slice(prefix.length));
}

describe("next-s3-upload's unchanged client (usePresignedUpload) against createUploadHandler", () => {
  // evaluate() awaits the page's promise: its result is the outcome itself.
  const upload = async (page: TestPage): Promise<NextS3UploadOutcome> => page.evaluate(() => window.nextS3Upload(), null);

  it('prepares with its _nextS3 marker, PUTs with its own headers, and resolves the stored object', async () => {
    const outcome = await upload(await openPage('next-s3-upload', 'photo'));
    expect(outcome).toHaveProperty('result');
    const { result } = outcome as Extract<NextS3UploadOutcome, { result: unknown }>;
    expect(result.bucket).toBe(server.storage.bucket);
    expect(result.key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-photo\.jpg$/);
    expect(result.url).toBe(`${server.storage.endpoint}/${server.storage.bucket}/${result.key}`);
    expect(server.handled).toEqual([{ marker: undefined, nextS3: { strategy: 'presigned' }, status: 200 }]);

    const { object, bytes } = await stored(result.key);
    expect(bytes.equals(files.photo.bytes)).toBe(true);
    expect(object.ContentType).toBe('image/jpeg');
    expect(object.CacheControl).toBe('max-age=630720000');
    // Its hook tracked the upload to the end.
    expect(await page!.attribute('.tracked', 'data-progress')).toBe('100');
  });

  it("throws the endpoint's refusal text: a size limit needs the filesize its client does not send", async () => {
    server.configure({ maxFileSize: 10 * MiB });
    const outcome = await upload(await openPage('next-s3-upload', 'photo'));
    expect(outcome).toEqual({ error: '"filesize" (bytes) is required: this endpoint limits the file size.' });
    expect(server.handled).toEqual([{ marker: undefined, nextS3: { strategy: 'presigned' }, status: 400 }]);
  });

  it("is refused while the handler signs an ACL its PUT cannot send: the marker never weakens the policy", async () => {
    server.configure({ objectAcl: 'private' });
    const outcome = await upload(await openPage('next-s3-upload', 'photo'));
    expect(outcome).toHaveProperty('error');
    expect((outcome as { error: string }).error).toContain("next-s3-upload's client cannot send the x-amz-acl header");
    expect(server.handled).toEqual([{ marker: undefined, nextS3: { strategy: 'presigned' }, status: 400 }]);
  });

  it('cannot store an HTML file: storage refuses its PUT, which lacks the signed Content-Disposition: attachment', async () => {
    const outcome = await upload(await openPage('next-s3-upload', 'page'));
    // next-s3-upload rejects without a reason when storage answers non-2xx (here 403).
    expect(outcome).toEqual({ error: 'undefined' });
    expect(server.handled).toEqual([{ marker: undefined, nextS3: { strategy: 'presigned' }, status: 200 }]);
  });
});

const uppyUpload = async (page: TestPage, input: UppyUploadInput): Promise<UppyOutcome> =>
  page.evaluate((argument) => window.uppyUpload(argument), input);
/** The operations the endpoint answered, in order: `put` for a single PUT's preparation. */
const actions = () => server.handled.map(({ marker }) => (marker?.multipart as { action?: string } | undefined)?.action ?? 'put');

describe('Uppy (@uppy/aws-s3 5) with uppyS3Options against createUploadHandler', () => {
  const upload = uppyUpload;

  it('sends a file under the threshold with one presigned PUT', async () => {
    server.configure({ maxFileSize: 100 * MiB });
    const outcome = await upload(await openPage('uppy', 'photo'), { adapter: {} });
    expect(outcome.failed).toEqual([]);
    expect(server.handled).toEqual([{ marker: { strategy: 'presigned' }, nextS3: undefined, status: 200 }]);
    const key = keyOf(outcome.uploaded[0]?.uploadURL);
    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-photo\.jpg$/);
    const { object, bytes } = await stored(key);
    expect(bytes.equals(files.photo.bytes)).toBe(true);
    expect(object.ContentType).toBe('image/jpeg');
    expect(object.CacheControl).toBe('max-age=630720000');
    expect(outcome.progress.at(-1)).toBe(files.photo.bytes.length);
  });

  it('sends a file over the threshold as a presigned multipart upload: create, one signed URL a part, complete', async () => {
    server.configure({ maxFileSize: 100 * MiB });
    const outcome = await upload(await openPage('uppy', 'large'), { adapter: { multipartThreshold: 5 * MiB } });
    expect(outcome.failed).toEqual([]);
    expect(actions()).toEqual(['create', 'sign-parts', 'sign-parts', 'sign-parts', 'complete']);
    expect(server.handled.every(({ status }) => status === 200)).toBe(true);
    const create = server.handled[0]!.marker!.multipart as { partSize: number };
    expect(create.partSize).toBe(5 * MiB);
    expect([...outcome.partsUploaded].sort()).toEqual([1, 2, 3]);

    const key = keyOf(outcome.uploaded[0]?.uploadURL);
    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/dataset\.bin$/);
    const { object, bytes } = await stored(key);
    expect(bytes.equals(files.large.bytes)).toBe(true);
    expect(object.ContentType).toBe('application/octet-stream');
    expect(outcome.progress.at(-1)).toBe(LARGE);
  });

  it("reports the endpoint's refusal as the upload's error (a file over maxFileSize: 413 at create)", async () => {
    server.configure({ maxFileSize: 10 * MiB });
    const outcome = await upload(await openPage('uppy', 'large'), { adapter: { multipartThreshold: 5 * MiB } });
    expect(outcome.uploaded).toEqual([]);
    expect(outcome.failed).toEqual([`File is ${LARGE} bytes; the largest accepted is ${10 * MiB} bytes.`]);
    expect(actions()).toEqual(['create']);
    expect(server.handled[0]!.status).toBe(413);
  });
});

describe.skipIf(!radosgw)('Uppy multipart with uppyS3Options on Ceph radosgw: resume (list parts), cancel (abort)', () => {
  let bucket: RadosgwBucket;
  let admin: S3Client;
  const large = { adapter: { multipartThreshold: 5 * MiB } };

  beforeAll(async () => {
    bucket = await createTestBucket(radosgw!, 'interop');
    admin = bucket.createClient();
  });
  afterAll(() => admin?.destroy());
  beforeEach(() => server.configure(bucket.handlerSettings));

  const openUploads = async () => (await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket.bucket }))).Uploads ?? [];

  it('resumes a paused upload from the parts storage lists, then completes it', async () => {
    const outcome = await uppyUpload(await openPage('uppy', 'large'), { ...large, pauseAfterParts: 1 });
    expect(outcome.failed).toEqual([]);
    expect(actions()).toContain('list-parts');
    expect(actions().at(-1)).toBe('complete');
    expect(server.handled.every(({ status }) => status === 200)).toBe(true);
    const key = keyOf(outcome.uploaded[0]?.uploadURL, radosgw!.endpoint, bucket.bucket);
    const { bytes } = await stored(key, admin, bucket.bucket);
    expect(bytes.equals(files.large.bytes)).toBe(true);
    expect(await openUploads()).toEqual([]);
  });

  it('aborts the multipart upload when the file is removed mid-upload: no part is left on storage', async () => {
    const outcome = await uppyUpload(await openPage('uppy', 'large'), { ...large, cancelAfterParts: 1 });
    expect(outcome.uploaded).toEqual([]);
    await expect.poll(() => server.handled.find(({ marker }) => (marker?.multipart as { action?: string })?.action === 'abort')?.status).toBe(200);
    expect(actions()).not.toContain('complete');
    expect(await openUploads()).toEqual([]);
  });
});
