import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createTestBucket, createUploadRole, type RadosgwBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UPLOAD_RECORD_PREFIX } from '../src/upload-record';
import {
  completeNotifiedUploads,
  createUploadHandler,
  reconcileUploads,
  UploadError,
  type NotifiedUploads,
  type UploadHandlerConfig,
  type UploadRoutes,
} from '../src/index';
import { notifyObjectCreated } from './radosgw-notifications';

// Hole 1 of issue 42, as the attack: with the temporary-token strategy the browser writes the object's
// `x-amz-meta-*` itself. An attacker prepares an avatar as themself, stores it with `user-id: <victim>` and
// never reports it; the completions that have no page's receipt (the CLI reconcile, radosgw's bucket
// notifications) must still give the upload to the attacker: the owner comes from the upload record the
// server wrote, signed, at preparation, never from the object. On Ceph radosgw (STS AssumeRole, real
// notifications posted by radosgw to an endpoint on 127.0.0.1) and the upload-server CLI as a child process.

const radosgw = inject('radosgw');
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = promisify(execFile);

interface HookCall {
  key: string;
  source: string;
  context: unknown;
}

/**
 * The README's avatar route, as the docs now write it: the signed-in user (here the `x-user` header) is
 * decided in `onBeforeUpload` and returned as the context; the hook gives the avatar to `context.userId` on
 * every path. The user id is also stored as metadata, which the hook must not trust.
 */
function avatarRoutes(calls: HookCall[]): UploadRoutes {
  return {
    avatar: {
      keyPrefix: 'avatars/',
      allowedContentTypes: ['image/*'],
      onBeforeUpload: ({ request }) => {
        const userId = request.headers.get('x-user');
        if (!userId) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
        return { userId, metadata: { 'user-id': userId } };
      },
      onUploadComplete: ({ key, source, context }) => {
        calls.push({ key, source, context });
        return { owner: (context as { userId: string }).userId };
      },
    },
  };
}

async function post(handler: (request: Request) => Promise<Response>, user: string, body: object) {
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user': user },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** What the browser's S3 client holds with a temporary-token answer. */
function browserClient(answer: Record<string, any>) {
  const { Credentials } = answer.token;
  return new S3Client({
    region: answer.region,
    endpoint: answer.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken },
  });
}

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

describe.runIf(radosgw)('an upload nobody reported belongs to who prepared it, not to the metadata its browser wrote (radosgw)', () => {
  let roleArn: string;
  beforeAll(async () => {
    roleArn = await createUploadRole(radosgw!);
  });

  it('the CLI reconcile gives the attacker\'s upload to the attacker, leaves an object no preparation covers alone, and a rewrite naming a third user changes nothing', async () => {
    const storage = await createTestBucket(radosgw!, 'identity');
    const admin = storage.createClient();
    const calls: HookCall[] = [];
    const settings = { ...storage.handlerSettings, roleArn, stsEndpoint: radosgw!.endpoint };
    const handler = createUploadHandler({ ...settings, routes: avatarRoutes(calls) });
    const folder = await mkdtemp(join(tmpdir(), 'upbeam-identity-'));
    try {
      // The attacker prepares as themself and stores the object naming the victim; never reports it.
      const prepared = await post(handler, 'mallory', { route: 'avatar', filename: 'me.png', filetype: 'image/png', _upload: { strategy: 'temporary-token' } });
      expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
      const { key } = prepared.body;
      const browser = browserClient(prepared.body);
      const put = (userId: string) =>
        browser.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: randomBytes(100), ContentType: 'image/png', Metadata: { 'user-id': userId } }));
      await put('victim');
      // Nor can the token write a record of its own (its session policy: the one key).
      await expect(
        browser.send(new PutObjectCommand({ Bucket: storage.bucket, Key: `${UPLOAD_RECORD_PREFIX}forged/1.9999999999.x`, Body: 'forged' })),
      ).rejects.toSatisfy((error) => statusOf(error) === 403);
      // An object under the route's prefix that no preparation of the handler covers (another tool wrote it).
      const stray = 'avatars/stray/victim.png';
      await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: stray, Body: randomBytes(100), ContentType: 'image/png', Metadata: { 'user-id': 'victim' } }));

      // The reconcile cron of the docs: the CLI, with a configuration module that records its hook's calls.
      const module = join(folder, 'upload-config.mjs');
      const log = join(folder, 'calls.jsonl');
      await writeFile(
        module,
        `import { appendFileSync } from 'node:fs';
         export default {
           ...${JSON.stringify(storage.handlerSettings)},
           routes: { avatar: { keyPrefix: 'avatars/', allowedContentTypes: ['image/*'],
             onUploadComplete: ({ key, source, context }) => { appendFileSync(${JSON.stringify(log)}, JSON.stringify({ key, source, context }) + '\\n'); } } },
         };`,
      );
      const reconcile = async () => {
        const { stdout } = await run(process.execPath, [CLI, 'reconcile', '--config', module, '--older-than', '0', '--apply']);
        return JSON.parse(stdout) as { objects: { key: string; outcome: string }[] };
      };
      const hookCalls = async () =>
        (await readFile(log, 'utf8').catch(() => ''))
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as HookCall);

      const first = await reconcile();
      expect(first.objects).toEqual(
        expect.arrayContaining([expect.objectContaining({ key, outcome: 'completed' }), expect.objectContaining({ key: stray, outcome: 'unprepared' })]),
      );
      expect(await hookCalls()).toEqual([{ key, source: 'reconcile', context: { userId: 'mallory' } }]);

      // Still holding a valid token, the attacker stores the key again naming a third user: a new version,
      // reconciled again, still the attacker's.
      await new Promise((resolve) => setTimeout(resolve, 1100)); // a new Last-Modified second: a new version
      await put('carol');
      const second = await reconcile();
      // In key order: the random part of the attacker's key decides which comes first.
      expect(second.objects).toHaveLength(2);
      expect(second.objects).toEqual(
        expect.arrayContaining([expect.objectContaining({ key, outcome: 'completed' }), expect.objectContaining({ key: stray, outcome: 'unprepared' })]),
      );
      expect((await hookCalls()).map((call) => call.context)).toEqual([{ userId: 'mallory' }, { userId: 'mallory' }]);
      expect(calls).toEqual([]);
      browser.destroy();
    } finally {
      admin.destroy();
      await rm(folder, { recursive: true, force: true });
    }
  });

  describe('radosgw bucket notifications', () => {
    let storage: RadosgwBucket;
    let admin: S3Client;
    let receiver: Server;
    let deleteTopic: (() => Promise<void>) | undefined;
    const calls: HookCall[] = [];
    const notified: NotifiedUploads[] = [];
    let config: UploadHandlerConfig & { routes: UploadRoutes };

    beforeAll(async () => {
      storage = await createTestBucket(radosgw!, 'identity-events');
      admin = storage.createClient();
      config = { ...storage.handlerSettings, roleArn, stsEndpoint: radosgw!.endpoint, routes: avatarRoutes(calls), onError: () => {} };
      receiver = createServer(async (request, response) => {
        let text = '';
        for await (const chunk of request) text += chunk;
        notified.push(await completeNotifiedUploads(config, JSON.parse(text)));
        response.writeHead(200).end();
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const pushEndpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/storage-events`;
      deleteTopic = await notifyObjectCreated(radosgw!, admin, storage.bucket, pushEndpoint);
    }, 60_000);
    afterAll(async () => {
      await deleteTopic?.();
      admin?.destroy();
      receiver?.close();
    });

    const outcomes = () => notified.flatMap((result) => result.objects.map(({ key, outcome }) => ({ key, outcome })));

    it('the notification posted during the attacker\'s PUT completes it as the attacker\'s; an honest upload gets its own context, and its late report the stored answer', async () => {
      const handler = createUploadHandler(config);
      const attack = await post(handler, 'mallory', { route: 'avatar', filename: 'me.png', filetype: 'image/png', _upload: { strategy: 'temporary-token' } });
      expect(attack.status, JSON.stringify(attack.body)).toBe(200);
      const attacker = browserClient(attack.body);
      await attacker.send(
        new PutObjectCommand({ Bucket: storage.bucket, Key: attack.body.key, Body: randomBytes(100), ContentType: 'image/png', Metadata: { 'user-id': 'victim' } }),
      );
      attacker.destroy();
      await expect.poll(outcomes, { timeout: 15_000, interval: 200 }).toContainEqual({ key: attack.body.key, outcome: 'completed' });

      const honest = await post(handler, 'alice', { route: 'avatar', filename: 'alice.png', filetype: 'image/png', _upload: { strategy: 'temporary-token' } });
      const alice = browserClient(honest.body);
      await alice.send(
        new PutObjectCommand({ Bucket: storage.bucket, Key: honest.body.key, Body: randomBytes(100), ContentType: 'image/png', Metadata: honest.body.metadata }),
      );
      alice.destroy();
      await expect.poll(outcomes, { timeout: 15_000, interval: 200 }).toContainEqual({ key: honest.body.key, outcome: 'completed' });
      const report = await post(handler, 'alice', {
        route: 'avatar',
        filename: 'alice.png',
        filetype: 'image/png',
        _upload: { strategy: 'temporary-token', complete: { key: honest.body.key, receipt: honest.body.receipt } },
      });
      expect(report).toEqual({ status: 200, body: { key: honest.body.key, size: 100, serverData: { owner: 'alice' } } });

      expect(calls).toEqual([
        { key: attack.body.key, source: 'reconcile', context: { userId: 'mallory' } },
        { key: honest.body.key, source: 'reconcile', context: { userId: 'alice' } },
      ]);
    });
  });
});

describe('upload records on s3rver (local-s3)', () => {
  let storage: LocalS3;
  beforeAll(async () => {
    storage = await startLocalS3();
  });
  afterAll(() => storage?.close());

  it('two users who prepared the same key: an object stored while both could is left alone; a record of another route never verifies', async () => {
    const calls: HookCall[] = [];
    // A route whose key the app takes from the request (a shared document): anyone signed in may prepare it.
    const routes: UploadRoutes = {
      shared: {
        keyPrefix: 'shared/',
        onBeforeUpload: ({ request }) => ({ key: 'shared/report.pdf', userId: request.headers.get('x-user') }),
        onUploadComplete: ({ key, source, context }) => void calls.push({ key, source, context }),
      },
      other: { keyPrefix: 'other/', onUploadComplete: ({ key, source, context }) => void calls.push({ key, source, context }) },
    };
    const config = { ...storage.handlerSettings, routes };
    const handler = createUploadHandler(config);
    const body = { route: 'shared', filename: 'report.pdf', filetype: 'application/pdf', filesize: 10, _upload: { strategy: 'presigned' } };
    const first = await post(handler, 'alice', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await fetch(first.body.url, { method: 'PUT', headers: first.body.headers, body: 'alice-data' })).status).toBe(200);
    expect((await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false })).objects).toEqual([
      expect.objectContaining({ key: 'shared/report.pdf', outcome: 'completed' }),
    ]);
    expect(calls).toEqual([{ key: 'shared/report.pdf', source: 'reconcile', context: { userId: 'alice' } }]);

    // Mallory prepares the same key while Alice's URL is still valid; either of them may store it now.
    await post(handler, 'mallory', body);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await fetch(first.body.url, { method: 'PUT', headers: first.body.headers, body: 'alice-agai' })).status).toBe(200);
    const conflicting = await reconcileUploads(config, { olderThanSeconds: 0, dryRun: false });
    expect(conflicting.objects).toEqual([expect.objectContaining({ key: 'shared/report.pdf', outcome: 'unprepared' })]);
    expect(calls).toHaveLength(1);

    // The same key under another route: the shared route's records are signed in its scope, not the other's.
    const elsewhere = await reconcileUploads({ ...storage.handlerSettings, routes: { other: { keyPrefix: 'shared/', onUploadComplete: () => {} } } }, { olderThanSeconds: 0, dryRun: false });
    expect(elsewhere.objects).toEqual([expect.objectContaining({ key: 'shared/report.pdf', outcome: 'unprepared' })]);
  });
});
