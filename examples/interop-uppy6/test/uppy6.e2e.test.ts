import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { launchBrowser, type TestBrowser, type TestPage } from '@upbeam/test-browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInteropServer, type InteropServer } from '../../interop/test/interop-server';
import type { Uppy6Outcome } from '../page/uppy6';

// The @uppy/aws-s3 6 glue of docs/guide/migrating.md (signRequest, single PUTs) in chromium, against a real createUploadHandler
// with a size limit, and s3rver on another origin.

const MiB = 1024 * 1024;
const SIZE = 3 * MiB + 5;

let server: InteropServer;
let s3: S3Client;
let browser: TestBrowser;
let page: TestPage;
let dir: string;
let bytes: Buffer;

beforeAll(async () => {
  server = await startInteropServer({
    uppy6: { entry: join(import.meta.dirname, '..', 'page', 'uppy6.ts'), body: '<input type="file" id="file">' },
  });
  s3 = server.storage.createClient();
  browser = await launchBrowser('chromium');
  dir = await mkdtemp(join(tmpdir(), 'upbeam-uppy6-'));
  bytes = randomBytes(SIZE);
  await writeFile(join(dir, 'holiday photo.jpg'), bytes);
});

afterAll(async () => {
  s3?.destroy();
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Uppy 6 (@uppy/aws-s3 6, signRequest) with the glue of the migrating guide against createUploadHandler', () => {
  it('sends a file with one presigned PUT, under the key and with the headers the server signed', async () => {
    server.configure({ maxFileSize: 10 * MiB });
    page = await browser.newPage();
    await page.goto(`${server.origin}/uppy6.html`);
    await page.setInputFile('#file', join(dir, 'holiday photo.jpg'));
    const outcome: Uppy6Outcome = await page.evaluate(() => window.uppy6Upload(), null);
    await page.close();

    expect(outcome.failed).toEqual([]);
    expect(server.handled).toEqual([{ marker: { strategy: 'presigned' }, nextS3: undefined, status: 200 }]);
    const key = outcome.uploaded[0]?.key;
    expect(key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/holiday-photo\.jpg$/);
    const object = await s3.send(new GetObjectCommand({ Bucket: server.storage.bucket, Key: key }));
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);
    expect(object.ContentType).toBe('image/jpeg');
    expect(object.CacheControl).toBe('max-age=630720000');
    expect(object.Metadata).toEqual({});
  });
});
