import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reconcileCommand } from '../src/commands/reconcile';
import { COMPLETION_MARKER_PREFIX } from '../src/completion-marker';
import {
  createUploadHandler,
  reconcileUploads,
  type UploadCompleteContext,
  type UploadHandlerConfig,
  type UploadRoutes,
} from '../src/index';

// The reconciliation against real storage on 127.0.0.1 (s3rver and Ceph radosgw): uploads stored through
// the handler's presigned URLs whose page never reported them are found and their route's hook runs once,
// through the same completion marker a report writes. Each test uses its own key prefixes in one bucket.

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;

const radosgw = inject('radosgw');
const storages: { name: string; start(): Promise<Storage>; conditionalCreate: boolean }[] = [
  { name: 's3rver', start: () => startLocalS3(), conditionalCreate: false },
  ...(radosgw ? [{ name: 'radosgw', start: () => createTestBucket(radosgw, 'reconcile'), conditionalCreate: true }] : []),
];

describe.each(storages)('reconcileUploads on $name', ({ start, conditionalCreate }) => {
  let storage: Storage;
  let admin: S3Client;
  let test = 0;

  beforeAll(async () => {
    storage = await start();
    admin = storage.createClient();
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  /**
   * A handler configuration of three routes under this test's own prefix `t{n}/`: `photos` (images up to
   * 5000 bytes) and `docs` with a hook that records its calls, `plain` without one.
   */
  function setUp(hookDelayMs = 0) {
    test += 1;
    const base = `t${test}/`;
    const calls: UploadCompleteContext[] = [];
    const hook = async (context: UploadCompleteContext) => {
      calls.push(context);
      if (hookDelayMs) await new Promise((resolve) => setTimeout(resolve, hookDelayMs));
      return { run: calls.length };
    };
    const routes: UploadRoutes = {
      photos: { keyPrefix: `${base}photos/`, allowedContentTypes: ['image/*'], maxFileSize: 5000, onUploadComplete: hook },
      docs: { keyPrefix: `${base}docs/`, onUploadComplete: hook },
      plain: { keyPrefix: `${base}plain/` },
    };
    const config: UploadHandlerConfig & { routes: UploadRoutes } = { ...storage.handlerSettings, routes, onError: () => {} };
    const handler = createUploadHandler(config);
    const call = async (body: object) => {
      const response = await handler(
        new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    /** A presigned PUT as the browser sends it, without the report: its preparation answer. */
    const upload = async (route: string, filetype = 'image/png', size = 100) => {
      const prepared = await call({ route, filename: 'f.bin', filetype, filesize: size, _upload: { strategy: 'presigned' } });
      expect(prepared.status).toBe(200);
      const put = await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(size) });
      expect(put.status).toBe(200);
      return prepared.body as { key: string; receipt: string };
    };
    const report = (route: string, prepared: { key: string; receipt: string }) =>
      call({ route, filename: 'f.bin', filetype: 'image/png', _upload: { strategy: 'presigned', complete: prepared } });
    return { base, config, calls, upload, report };
  }

  const exists = (Key: string) =>
    admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key })).then(
      () => true,
      () => false,
    );
  const markerCount = async () => (await admin.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: COMPLETION_MARKER_PREFIX }))).KeyCount ?? 0;
  const sorted = (keys: string[]) => [...keys].sort();

  it('finds the unreported uploads (dry run changes nothing), runs each hook once, and a second run runs none', async () => {
    const { base, config, calls, upload, report } = setUp();
    const unreported = [await upload('photos'), await upload('photos'), await upload('docs', 'application/pdf')];
    const reported = await upload('photos');
    expect((await report('photos', reported)).status).toBe(200);
    await upload('plain');
    // Stored without the handler (a token upload whose credentials ignored the route's rules): too large.
    const tooLarge = `${base}photos/too-large.png`;
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: tooLarge, Body: randomBytes(6000), ContentType: 'image/png' }));
    // The doctor's probe, left behind by a doctor run that was stopped.
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: `${base}photos/upbeam-doctor-abc.txt`, Body: 'probe' }));
    expect(calls).toHaveLength(1);
    const markers = await markerCount();

    const dry = await reconcileUploads(config, { olderThanSeconds: 0 });
    expect(dry).toMatchObject({ dryRun: true, finished: true });
    // plain/ has no hook: it is not listed.
    expect(dry.counts).toEqual({ listed: 6, internal: 1, recent: 0, old: 0, noHook: 0, recorded: 1, unrecorded: 4 });
    expect(sorted(dry.objects.map((object) => object.key))).toEqual(sorted([...unreported.map(({ key }) => key), tooLarge]));
    expect(dry.objects.every((object) => object.outcome === 'unreported')).toBe(true);
    expect(dry.objects.find((object) => object.key === unreported[2]!.key)).toMatchObject({ route: 'docs', size: 100 });
    expect(calls).toHaveLength(1);
    expect(await markerCount()).toBe(markers);
    expect(await exists(tooLarge)).toBe(true);

    const applied = await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(applied.counts).toMatchObject({ listed: 6, recorded: 1, unrecorded: 4 });
    const outcome = (key: string) => applied.objects.find((object) => object.key === key);
    for (const { key } of unreported) expect(outcome(key)).toMatchObject({ outcome: 'completed' });
    expect(outcome(tooLarge)).toMatchObject({ outcome: 'refused', code: 'FILE_TOO_LARGE' });
    expect(await exists(tooLarge)).toBe(false);
    expect(calls.slice(1).map((context) => [context.key, context.source, context.request])).toEqual(
      expect.arrayContaining(unreported.map(({ key }) => [key, 'reconcile', undefined])),
    );
    expect(calls).toHaveLength(4);

    const again = await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(again.counts).toEqual({ listed: 5, internal: 1, recent: 0, old: 0, noHook: 0, recorded: 4, unrecorded: 0 });
    expect(again.objects).toEqual([]);
    expect(calls).toHaveLength(4);

    // A page that reports late gets the reconciliation's answer; the hook does not run again.
    expect(await report('photos', unreported[0]!)).toMatchObject({ status: 200, body: { serverData: { run: expect.any(Number) } } });
    expect(calls).toHaveLength(4);
  });

  it('leaves alone objects younger than the grace period and older than maxAgeSeconds', async () => {
    const { config, calls, upload } = setUp();
    await upload('photos');
    const recent = await reconcileUploads(config, { olderThanSeconds: 3600, dryRun: false });
    expect(recent.counts).toMatchObject({ listed: 1, recent: 1, unrecorded: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const old = await reconcileUploads(config, { olderThanSeconds: 0, maxAgeSeconds: 0, dryRun: false });
    expect(old.counts).toMatchObject({ listed: 1, old: 1, unrecorded: 0 });
    expect(calls).toHaveLength(0);
  });

  it.runIf(conditionalCreate)('a page reporting while the reconciliation runs the hook: it runs once', async () => {
    const { config, calls, upload, report } = setUp(500);
    const prepared = await upload('photos');
    const [reconciled, reported] = await Promise.all([reconcileUploads(config, { olderThanSeconds: 0, dryRun: false }), report('photos', prepared)]);
    expect(calls).toHaveLength(1);
    expect(reported).toMatchObject({ status: 200, body: { serverData: { run: 1 } } });
    // The reconciliation ran it, or found the report's claim (before its own: not listed; after: `recorded`).
    expect(['completed', 'recorded', undefined]).toContain(reconciled.objects[0]?.outcome);
  });

  it('lists in pages, stops at maxRequests with a key to continue from, and each continued run takes the rest', async () => {
    const { config, calls, upload } = setUp();
    const keys = [];
    for (let n = 0; n < 5; n += 1) keys.push((await upload('photos')).key);
    keys.push((await upload('docs')).key);

    const dry = await reconcileUploads(config, { olderThanSeconds: 0, pageSize: 2 });
    // 6 objects in 2-key pages: 3 pages of photos/ and 1 of docs/ (its single key), and a marker read each.
    expect(dry).toMatchObject({ finished: true, counts: { listed: 6, unrecorded: 6 } });
    expect(dry.requests).toBe(3 + 1 + 6);

    const seen: string[] = [];
    let startAfter: string | undefined;
    for (let round = 0; round < 10; round += 1) {
      // One page and one object's completion (up to 8 requests with its upload record) fit in 9.
      const run = await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false, pageSize: 2, maxRequests: 9, startAfter });
      expect(run.requests).toBeLessThanOrEqual(9);
      seen.push(...run.objects.map((object) => object.key));
      if (run.finished) break;
      expect(run.stoppedBy).toBe('maxRequests');
      startAfter = run.lastKey;
    }
    expect(sorted(seen)).toEqual(sorted(keys));
    expect(calls).toHaveLength(6);
  });

  it('stops before any request when maxSeconds is 0', async () => {
    const { config, upload } = setUp();
    await upload('photos');
    expect(await reconcileUploads(config, { olderThanSeconds: 0, maxSeconds: 0 })).toMatchObject({ finished: false, stoppedBy: 'maxSeconds', requests: 0 });
  });

  it('leaves alone the objects of two routes with the same prefix, and skips completion markers under a prefix of ""', async () => {
    const { base, config, calls, upload } = setUp();
    await upload('photos');
    const shared = `${base}photos/`;
    const hook = () => 'x';
    const sameRoutes = { a: { keyPrefix: shared, onUploadComplete: hook }, b: { keyPrefix: shared, onUploadComplete: hook } };
    const ambiguous = await reconcileUploads({ ...storage.handlerSettings, routes: sameRoutes }, { olderThanSeconds: 0, dryRun: false });
    expect(ambiguous.objects).toEqual([expect.objectContaining({ outcome: 'ambiguous', routes: ['a', 'b'] })]);

    // A handler whose keys may be anywhere lists the whole bucket: the markers there are its own.
    await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(calls).toHaveLength(1);
    const anywhere = await reconcileUploads({ ...storage.handlerSettings, keyPrefix: '', onUploadComplete: hook }, { olderThanSeconds: 0 });
    expect(anywhere.counts.internal).toBeGreaterThanOrEqual(await markerCount());
    expect(anywhere.objects.some((object) => object.key.startsWith(COMPLETION_MARKER_PREFIX))).toBe(false);
  });

  it('the CLI (upload-server reconcile) loads the configuration module, prints the report as JSON, and is a dry run without --apply', async () => {
    const { config, upload } = setUp();
    const { key } = await upload('docs', 'text/plain');
    const folder = await mkdtemp(join(tmpdir(), 'upbeam-reconcile-'));
    const module = join(folder, 'upload-config.mjs');
    // The hook of a module loaded by the CLI: it records its keys on globalThis, where this test reads them.
    const routes = Object.fromEntries(
      Object.entries(config.routes).map(([name, route]) => [name, { keyPrefix: route.keyPrefix, hook: route.onUploadComplete !== undefined }]),
    );
    await writeFile(
      module,
      `const routes = ${JSON.stringify(routes)};
       globalThis.reconciled = [];
       for (const route of Object.values(routes)) if (route.hook) route.onUploadComplete = ({ key }) => { globalThis.reconciled.push(key); };
       export default { ...${JSON.stringify(storage.handlerSettings)}, routes };`,
    );
    const printed: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((text: string) => (printed.push(text), true)) as typeof process.stdout.write;
    try {
      expect(await reconcileCommand(['--config', module, '--older-than', '0'])).toBe(0);
      expect(await reconcileCommand(['--config', module, '--older-than', '0', '--apply', '--page-size', '10'])).toBe(0);
    } finally {
      process.stdout.write = write;
      await rm(folder, { recursive: true, force: true });
    }
    const [dry, applied] = printed.map((text) => JSON.parse(text));
    expect(dry).toMatchObject({ dryRun: true, objects: [{ key, route: 'docs', outcome: 'unreported' }] });
    expect(applied).toMatchObject({ dryRun: false, objects: [{ key, route: 'docs', outcome: 'completed' }] });
    expect((globalThis as { reconciled?: string[] }).reconciled).toEqual([key]);
    await expect(reconcileCommand(['--config', module, '--max-requests', 'many'])).rejects.toThrow('--max-requests must be a whole number, got "many".');
  });
});
