import { DeleteObjectCommand, GetObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { FAULT_KINDS, startFaultProxy, type FaultProxy } from '@upbeam/fault-proxy';
import { launchChromiumContext, type ChromiumContext } from '@upbeam/test-browser';
import { createUploadHandler } from '@upbeam/upload-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startExample, type RunningExample } from './example-server';
import { runFaultRun } from './fault-run';

// The fault run extended to multipart uploads: files above the example page's multipart threshold
// (32 MiB), both strategies (presigned: the endpoint creates, signs, completes; temporary token: the
// browser signs), through the fault-injection proxy. Every part is retried on its own: each upload must
// end stored byte-identical with progress that never goes back, and leave no orphaned parts.

const MiB = 1024 * 1024;
/** 7 and 8 parts of 5 MiB. */
const SIZES = [33 * MiB + 5, 38 * MiB + 11];
const UPLOADS = 8;
const RATE = 0.1;
const SEED = 8430;
const RUN_TIMEOUT_MS = 240_000;

let example: RunningExample;
let browser: ChromiumContext;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  [example, browser] = await Promise.all([startExample(), launchChromiumContext()]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await example?.close();
});

describe('multipart fault run on the embedded storage (s3rver)', () => {
  it(
    `${UPLOADS} multipart uploads (4 presigned, 4 temporary-token), faults on ~10% of storage requests: every file stored byte-identical`,
    async () => {
      const proxy = await startFaultProxy({
        target: example.storage.endpoint,
        rate: RATE,
        seed: SEED,
        // s3rver answers a repeated CompleteMultipartUpload 500 (see fault-run.e2e.test.ts): no truncated
        // Complete answers here.
        kinds: (request) =>
          request.operation === 'CompleteMultipartUpload' ? FAULT_KINDS.filter((kind) => kind !== 'truncate') : FAULT_KINDS,
      });
      proxies.push(proxy);
      example.setUploadHandler(createUploadHandler({ ...example.settings, endpoint: proxy.url, stsClient: example.storage.stsClient }));
      const { bucket } = example.storage;
      const report = await runFaultRun(
        {
          name: 's3rver multipart',
          context: browser.context,
          origin: example.origin,
          proxy,
          urlPrefix: `${proxy.url}/${bucket}/`,
          read: async (key) => (await example.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray(),
          remove: async (key) => {
            await example.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
          },
        },
        { uploads: UPLOADS, sizes: SIZES, concurrency: 2, timeoutMs: RUN_TIMEOUT_MS },
      );
      console.log(report.line);
      expect(report.failures, report.failures.join('\n')).toEqual([]);
      expect(report.faultCount).toBeGreaterThanOrEqual(3);
      expect(report.orphans).toBe(report.lostCreates);
      example.setUploadHandler(undefined);
    },
    RUN_TIMEOUT_MS + 60_000,
  );
});

const connection = inject('radosgw');

describe.skipIf(!connection)('multipart fault run on Ceph radosgw', () => {
  it(
    `${UPLOADS} multipart uploads (4 presigned, 4 temporary-token), faults on ~10% of storage requests: every file stored, no multipart upload left but lost ones`,
    async () => {
      const rgw = connection!;
      const bucket = `mp-fault-${Date.now().toString(36)}`;
      await createBucket(rgw, bucket, { allowedOrigins: [example.origin] });
      const roleArn = await createUploadRole(rgw);
      const admin = radosgwS3Client(rgw);
      const proxy = await startFaultProxy({ target: rgw.endpoint, rate: RATE, seed: SEED });
      proxies.push(proxy);
      // The check of unsigned headers (test/curl-attacks.test.ts) is skipped: its probe would pass the proxy as page requests.
      example.setUploadHandler(createUploadHandler({ ...tokenHandlerSettings(rgw, bucket, roleArn), endpoint: proxy.url, checkUnsignedHeaders: false }));
      try {
        const report = await runFaultRun(
          {
            name: 'radosgw multipart',
            context: browser.context,
            origin: example.origin,
            proxy,
            urlPrefix: `${proxy.url}/${bucket}/`,
            read: async (key) => (await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToByteArray(),
            // radosgw keeps objects in RAM: each one deleted once checked.
            remove: async (key) => {
              await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
            },
            listIncomplete: async () => (await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads?.length ?? 0,
          },
          { uploads: UPLOADS, sizes: SIZES, concurrency: 2, timeoutMs: RUN_TIMEOUT_MS },
        );
        console.log(report.line);
        expect(report.failures, report.failures.join('\n')).toEqual([]);
        expect(report.faultCount).toBeGreaterThanOrEqual(3);
        expect(report.orphans).toBe(report.lostCreates);
        expect(report.listedIncomplete).toBe(report.orphans);
      } finally {
        admin.destroy();
        example.setUploadHandler(undefined);
      }
    },
    RUN_TIMEOUT_MS + 60_000,
  );
});
