import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListMultipartUploadsCommand, PutBucketCorsCommand, type S3Client } from '@aws-sdk/client-s3';
import { radosgwS3Client } from '@upbeam/ceph-rgw';
import { launchChromiumContext, openChromiumPage, type ChromiumContext } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { diagnoseUploadConfig } from '@upbeam/upload-server/doctor';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { SELECTORS } from './selectors';

// The misconfiguration of the support threads, for real: a radosgw bucket whose CORS rule allows the page
// but does not expose ETag. The config doctor reports it; a multipart upload from chromium fails with the
// client's MISSING_ETAG hint (and aborts its upload: DELETE is allowed).

const connection = inject('radosgw');
const MiB = 1024 * 1024;
/** Over the page's 32 MiB multipart threshold of the presigned strategy. */
const FILE_SIZE = 33 * MiB;
const bucket = `noetag-${Date.now().toString(36)}`;

let example: RunningExample;
let browser: ChromiumContext;
let admin: S3Client;
let dir: string;
let filePath: string;

beforeAll(async () => {
  if (!connection) return;
  [example, browser] = await Promise.all([startExample(), launchChromiumContext()]);
  admin = radosgwS3Client(connection);
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  await admin.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [{ AllowedOrigins: [example.origin], AllowedMethods: ['GET', 'PUT', 'POST', 'HEAD', 'DELETE'], AllowedHeaders: ['*'] }],
      },
    }),
  );
  const { accessKeyId, secretAccessKey, region, endpoint } = connection;
  // A bucket without the security guide's policy (this test is about CORS): the check of unsigned headers would refuse it.
  example.setUploadHandler(createUploadHandler({ accessKeyId, secretAccessKey, region, endpoint, bucket, provider: 'ceph', checkUnsignedHeaders: false }));
  dir = await mkdtemp(join(tmpdir(), 'upbeam-noetag-'));
  filePath = join(dir, 'archive.bin');
  await writeFile(filePath, randomBytes(FILE_SIZE));
});

afterAll(async () => {
  admin?.destroy();
  await browser?.close();
  await example?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!connection)('bucket CORS rule without ExposeHeader ETag, radosgw, chromium', () => {
  it('the doctor fails the CORS check and the multipart upload fails with the MISSING_ETAG hint', async () => {
    const { accessKeyId, secretAccessKey, region, endpoint } = connection!;
    const findings = await diagnoseUploadConfig({ accessKeyId, secretAccessKey, region, endpoint, bucket, provider: 'ceph', origin: example.origin, env: {} });
    expect(findings.find((finding) => finding.check === 'cors')).toMatchObject({ status: 'fail' });

    const page = await openChromiumPage(browser.context, example.origin, -1);
    await page.getByLabel('Presigned URL (one PUT)').check();
    await page.setInputFiles(SELECTORS.fileInput, filePath);
    await expect.poll(() => page.locator(SELECTORS.upload).getAttribute('data-status'), { timeout: 110_000, interval: 250 }).toBe('error');
    const error = await page.locator(SELECTORS.error).textContent();
    expect(error).toContain('missing ETag in UploadPart response. Missing Bucket CORS configuration for ETag header?');
    expect(error).toContain('Add "ETag" to the bucket\'s CORS ExposeHeaders');
    // The failed upload aborted itself (DELETE is allowed): no parts left billed.
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    expect(Uploads).toEqual([]);
    await page.close();
  });
});
