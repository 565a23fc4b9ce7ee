import { createHash, randomBytes } from 'node:crypto';
import {
  DeleteBucketPolicyCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { IAMClient, UpdateAssumeRolePolicyCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import {
  chainableRoleTrustPolicy,
  createTestBucket,
  createUploadRole,
  OTHER_USERS,
  otherUserConnection,
  radosgwS3Client,
  tokenHandlerSettings,
  uploadRoleTrustPolicy,
  type RadosgwBucket,
} from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { diagnoseUploadConfig, unsignedHeaderBucketPolicy, type Finding } from '../src/doctor/index';
import { createUploadHandler, isUploadError, type UploadHandler, type UploadHandlerConfig } from '../src/index';
import { COMPLETION_MARKER_PREFIX } from '../src/completion-marker';
import { createPresigner } from '../src/presign';
import { resolveStorageSettings } from '../src/settings';
import { UNSIGNED_HEADER_RECHECK_MS } from '../src/unsigned-header-gate';
import { OTHER_ROLES_RECHECK_MS } from '../src/role-chaining';
import { uploadTokenPolicy } from '../src/temporary-token';

// The six holes of the 2026-11-24 review, each as the attacker's requests with curl would make them (here
// Node's fetch and the AWS SDK with the browser's credentials), against a real Ceph radosgw 16.2 and the
// embedded local-s3 (s3rver). Each test failed on the handler before the fix.

const connection = inject('radosgw');
const MiB = 1024 * 1024;

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;
const storages: { name: string; start(): Promise<Storage> }[] = [
  { name: 'local-s3', start: () => startLocalS3() },
  ...(connection ? [{ name: 'radosgw', start: () => createTestBucket(connection, 'attacks') }] : []),
];

/** A realistic app: images up to 10 MiB, an authorizing hook, a completion hook. */
function appConfig(storage: Storage, hook: () => unknown = vi.fn(() => ({ ok: true }))): UploadHandlerConfig {
  return {
    ...storage.handlerSettings,
    maxFileSize: 10 * MiB,
    allowedContentTypes: ['image/*'],
    onBeforeUpload: ({ request }) => {
      if (request.headers.get('cookie') !== 'session=alice') throw new Error('tests always send the cookie');
    },
    onUploadComplete: hook,
    onError: () => {},
  };
}

async function post(handler: UploadHandler, body: object): Promise<{ status: number; body: Record<string, any> }> {
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'session=alice' },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const presigned = (filetype: string, filesize: number, extra: object = {}) => ({
  filename: 'cat.png',
  filetype,
  filesize,
  _upload: { strategy: 'presigned' },
  ...extra,
});

async function textAt(s3: S3Client, Bucket: string, Key: string): Promise<string | undefined> {
  try {
    return await (await s3.send(new GetObjectCommand({ Bucket, Key }))).Body!.transformToString();
  } catch {
    return undefined;
  }
}

const byCheck = (findings: Finding[], check: string) => findings.find((finding) => finding.check === check)!;

describe.each(storages)('hole 1: a presigned PUT URL runs a CopyObject with the server\'s rights ($name)', ({ name, start }) => {
  let storage: Storage;
  let admin: S3Client;
  beforeAll(async () => {
    // radosgw as it creates a bucket: without the security guide's bucket policy (issue 42, hole 2).
    storage = name === 'radosgw' ? await createTestBucket(connection!, 'attacks', { allowedOrigins: ['*'], refuseCopies: false }) : await start();
    admin = storage.createClient();
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: 'private-data/secrets/db.env', Body: 'DB_PASSWORD=hunter2' }));
  });
  afterAll(async () => {
    vi.useRealTimers();
    admin?.destroy();
    await storage?.close();
  });

  /** The attack: a URL signed for 0 bytes of image/png, sent with an added x-amz-copy-source and no body. */
  async function copyThrough(url: string, headers: Record<string, string>): Promise<number> {
    const response = await fetch(url, {
      method: 'PUT',
      headers: { ...headers, 'x-amz-copy-source': `${storage.bucket}/private-data/secrets/db.env`, 'x-amz-metadata-directive': 'REPLACE' },
      body: '',
    });
    await response.body?.cancel();
    return response.status;
  }

  async function copyThroughUrl(): Promise<{ status: number; key: string }> {
    const prepared = await post(createUploadHandler(appConfig(storage)), presigned('image/png', 0));
    expect(prepared.status).toBe(200);
    return { status: await copyThrough(prepared.body.url, prepared.body.headers), key: prepared.body.key };
  }

  /** Every key in the bucket: the handler's probe leaves none behind. */
  async function keys(): Promise<string[]> {
    const listed = await admin.send(new ListObjectsV2Command({ Bucket: storage.bucket }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  }

  if (name === 'local-s3') {
    it('the handler asks storage once for concurrent first preparations (4 requests), then never again; it leaves nothing behind', async () => {
      const fetches = vi.spyOn(globalThis, 'fetch');
      try {
        const handler = createUploadHandler(appConfig(storage));
        // The probe's requests (its keys are the doctor's); each preparation also writes its upload record.
        const probeRequests = () => fetches.mock.calls.filter(([url]) => String(url).includes('upbeam-doctor-')).length;
        const answers = await Promise.all(Array.from({ length: 5 }, () => post(handler, presigned('image/png', 10))));
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
        // The canary PUT, the PUT with x-amz-copy-source, the PUT with a legal hold, the canary's DELETE.
        expect(probeRequests()).toBe(4);
        await post(createUploadHandler(appConfig(storage)), presigned('image/png', 10));
        expect(probeRequests()).toBe(4);
      } finally {
        fetches.mockRestore();
      }
      expect((await keys()).filter((key) => key.includes('upbeam-doctor-'))).toEqual([]);
    });
    it('local-s3 refuses an unsigned x-amz-copy-source on a presigned PUT (403, as AWS): nothing is stored', async () => {
      const { status, key } = await copyThroughUrl();
      expect(status).toBe(403);
      expect(await textAt(admin, storage.bucket, key)).toBeUndefined();
      expect(byCheck(await diagnoseUploadConfig({ ...storage.handlerSettings, env: {} }), 'presigned-headers').status).toBe('ok');
    });

    return;
  }

  it('radosgw without the bucket policy: the handler hands out no presigned URL (a single upload gets a presigned POST instead, multipart a 500 logged with the policy to apply) and leaves nothing behind; with the policy it does, the attack gets 403 and uploads work', async () => {
    const before = await diagnoseUploadConfig({ ...storage.handlerSettings, env: {} });
    const finding = byCheck(before, 'presigned-headers');
    expect(finding.status).toBe('fail');
    expect(finding.fix?.json).toEqual(unsignedHeaderBucketPolicy(storage.bucket));

    // What storage does with such a URL (signed here as the handler signs): it copies the secret.
    const settings = resolveStorageSettings(storage.handlerSettings, {});
    const s3 = async () => admin;
    const url = await createPresigner(settings, s3)({ key: 'next-s3-uploads/by-hand/cat.png', contentType: 'image/png', expiresIn: 60, contentLength: 0 });
    expect(await copyThrough(url.url, url.headers)).toBe(200);
    expect(await textAt(admin, storage.bucket, 'next-s3-uploads/by-hand/cat.png')).toBe('DB_PASSWORD=hunter2');
    await admin.send(new DeleteObjectCommand({ Bucket: storage.bucket, Key: 'next-s3-uploads/by-hand/cat.png' }));

    // The handler makes the same attempt once and hands out no presigned PUT URL: a single upload is answered
    // with a presigned POST (issue 45 item 3: presigned-post-storage.test.ts), multipart is refused.
    const logged: unknown[] = [];
    const refusing = createUploadHandler({ ...appConfig(storage), onError: (error) => logged.push(error) });
    const single = await post(refusing, presigned('image/png', 10));
    expect(single.status).toBe(200);
    expect(single.body.fields).toBeDefined();
    expect(single.body.headers).toBeUndefined();
    const multipart = { ...presigned('image/png', 6 * MiB), _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * MiB } } };
    expect(await post(refusing, multipart)).toEqual({ status: 500, body: { error: 'Internal Server Error' } });
    expect(logged).toHaveLength(1);
    for (const error of logged) {
      expect(isUploadError(error) && error.code).toBe('INVALID_SETTINGS');
      expect((error as Error).message).toContain('x-amz-copy-source');
      expect((error as Error).message).toContain('unsignedHeaderBucketPolicy(bucket)');
    }
    // (`.upbeam/`: the handler's own records, written at preparation.)
    expect((await keys()).filter((key) => !key.startsWith('.upbeam/'))).toEqual(['private-data/secrets/db.env']);
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket }));
    expect(Uploads).toEqual([]);

    await admin.send(new PutBucketPolicyCommand({ Bucket: storage.bucket, Policy: JSON.stringify(unsignedHeaderBucketPolicy(storage.bucket)) }));
    try {
      // The refusal is kept a minute, then storage is asked again: no restart after the policy is applied.
      expect((await post(createUploadHandler(appConfig(storage)), presigned('image/png', 10))).body.fields).toBeDefined();
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + UNSIGNED_HEADER_RECHECK_MS });
      const closed = await copyThroughUrl();
      expect(closed.status).toBe(403);
      expect(await textAt(admin, storage.bucket, closed.key)).toBeUndefined();
      expect(byCheck(await diagnoseUploadConfig({ ...storage.handlerSettings, env: {} }), 'presigned-headers').status).toBe('ok');

      // A presigned upload, and a multipart one, still work under the policy.
      const handler = createUploadHandler(appConfig(storage));
      const prepared = await post(handler, presigned('image/png', 1000));
      const put = await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(1000) });
      expect(put.status).toBe(200);
      const created = await post(handler, multipart);
      expect(created.status).toBe(200);
      const signed = await post(handler, { ...presigned('image/png', 6 * MiB), _upload: { strategy: 'presigned', multipart: { action: 'sign-parts', ticket: created.body.ticket, partNumbers: [1] } } });
      // An UploadPart URL with x-amz-copy-source is refused too (radosgw: 400 or 403), and a plain part goes in.
      const part = signed.body.parts[0];
      const copiedPart = await fetch(part.url, { method: 'PUT', headers: { ...part.headers, 'x-amz-copy-source': `${storage.bucket}/private-data/secrets/db.env` }, body: randomBytes(5 * MiB) });
      await copiedPart.body?.cancel();
      expect(copiedPart.status).toBeGreaterThanOrEqual(400);
      const plainPart = await fetch(part.url, { method: 'PUT', headers: part.headers, body: randomBytes(5 * MiB) });
      await plainPart.body?.cancel();
      expect(plainPart.status).toBe(200);
      await post(handler, { ...presigned('image/png', 6 * MiB), _upload: { strategy: 'presigned', multipart: { action: 'abort', ticket: created.body.ticket } } });
      expect((await keys()).filter((key) => key.includes('upbeam-doctor-'))).toEqual([]);
    } finally {
      vi.useRealTimers();
      await admin.send(new DeleteBucketPolicyCommand({ Bucket: storage.bucket }));
    }
  });
});

describe.each(storages)('hole 2: a comma type stores an HTML page ($name)', ({ start }) => {
  let storage: Storage;
  let admin: S3Client;
  beforeAll(async () => {
    storage = await start();
    admin = storage.createClient();
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  it.each(['image/png;x=1,text/html', 'image/png; a="b",image/svg+xml', 'image/png; a="b,text/html"'])(
    'refuses %j before anything is signed: presigned PUT and multipart create (400)',
    async (filetype) => {
      const handler = createUploadHandler(appConfig(storage));
      const single = await post(handler, presigned(filetype, 10));
      expect(single.status).toBe(400);
      expect(single.body.error).toContain('"filetype" must be one media type');
      const multipart = await post(handler, { ...presigned(filetype, 6 * MiB), _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * MiB } } });
      expect(multipart.status).toBe(400);
    },
  );

  it('signs and stores one normalized type: the stored Content-Type is what every check read', async () => {
    const handler = createUploadHandler(appConfig(storage));
    const prepared = await post(handler, presigned('Image/PNG ; Name="cat photo.png"', 10));
    expect(prepared.status).toBe(200);
    expect(prepared.body.headers['Content-Type']).toBe('image/png;name="cat photo.png"');
    expect((await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(10) })).status).toBe(200);
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: prepared.body.key }));
    expect(head.ContentType).toBe('image/png;name="cat photo.png"');
    expect(head.ContentDisposition).toBeUndefined();
  });

  it('a token upload stored with a disguised type is refused at completion (415) and deleted', async () => {
    // The browser holds credentials for its key and sets any Content-Type it likes (storage cannot bind it).
    const hook = vi.fn(() => ({ ok: true }));
    const { handler, client } = await tokenUpload(storage, hook);
    const prepared = await post(handler, { filename: 'cat.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'temporary-token' } });
    expect(prepared.status).toBe(200);
    const s3 = client(prepared.body.token.Credentials);
    await s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: prepared.body.key, Body: '<script>1</script>', ContentType: 'image/png;x=1,text/html' }));
    s3.destroy();
    const report = await post(handler, { filename: 'cat.png', filetype: 'image/png', _upload: { strategy: 'temporary-token', complete: { key: prepared.body.key, receipt: prepared.body.receipt } } });
    expect(report).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(hook).not.toHaveBeenCalled();
    expect(await textAt(admin, storage.bucket, prepared.body.key)).toBeUndefined();
  });
});

/** A temporary-token handler on `storage` (radosgw: a role; local-s3: its STS stand-in) and a client for its tokens. */
async function tokenUpload(storage: Storage, hook: UploadHandlerConfig['onUploadComplete'], extra: UploadHandlerConfig = {}) {
  const local = storage as Partial<LocalS3>;
  const token: UploadHandlerConfig = local.stsClient
    ? { stsClient: local.stsClient }
    : tokenHandlerSettings(connection!, storage.bucket, await createUploadRole(connection!));
  const handler = createUploadHandler({ ...appConfig(storage, hook as never), ...token, ...extra });
  const client = (credentials: { AccessKeyId: string; SecretAccessKey: string; SessionToken: string }): S3Client => {
    const keys = { accessKeyId: credentials.AccessKeyId, secretAccessKey: credentials.SecretAccessKey, sessionToken: credentials.SessionToken };
    // local-s3 enforces the token's session policy as S3 does: the browser's client holds the token on both.
    if (local.stsClient) return new S3Client({ region: local.region!, endpoint: local.endpoint!, forcePathStyle: true, credentials: keys });
    return radosgwS3Client(connection!, keys);
  };
  return { handler, client };
}

describe.skipIf(!connection)('hole 3: the _nextS3 marker turned off the signed ACL (radosgw)', () => {
  let storage: RadosgwBucket;
  beforeAll(async () => {
    storage = await createTestBucket(connection!, 'nexts3');
  });

  it('a next-s3-upload request is refused (400) when the handler signs an ACL; Upbeam\'s URL with an added public-read is refused (403)', async () => {
    const handler = createUploadHandler(appConfig(storage));
    const nextS3 = await post(handler, { filename: 'cat.png', filetype: 'image/png', filesize: 10, _nextS3: { strategy: 'presigned' } });
    expect(nextS3.status).toBe(400);
    expect(nextS3.body.error).toContain("next-s3-upload's client cannot send the x-amz-acl header");

    const ours = await post(handler, presigned('image/png', 10));
    const put = await fetch(ours.body.url, { method: 'PUT', headers: { ...ours.body.headers, 'x-amz-acl': 'public-read' }, body: randomBytes(10) });
    await put.body?.cancel();
    expect(put.status).toBe(403);
    expect((await fetch(`${connection!.endpoint}/${storage.bucket}/${ours.body.key}`)).status).not.toBe(200);
  });
});

describe('hole 4: renewal tickets chained forever (local-s3, with the handler\'s clock moved; storage is asked only before)', () => {
  let storage: LocalS3;
  beforeAll(async () => {
    storage = await startLocalS3();
  });
  afterAll(() => storage?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('renewals end 24 h after the first preparation; their credentials and receipts too; a late report is refused', async () => {
    const durations: number[] = [];
    const stsClient = {
      send: (command: { input: { DurationSeconds: number } }) => {
        durations.push(command.input.DurationSeconds);
        return storage.stsClient.send(command);
      },
    };
    const hook = vi.fn(() => ({ ok: true }));
    const handler = createUploadHandler({ ...appConfig(storage, hook), stsClient: stsClient as never });
    // On a whole second: ticket times are whole seconds.
    const t0 = Math.floor(Date.now() / 1000) * 1000;
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const hours = (h: number) => vi.setSystemTime(t0 + h * 3600_000);
    const token = { filename: 'cat.png', filetype: 'image/png', filesize: 10 };
    const first = await post(handler, { ...token, _upload: { strategy: 'temporary-token' } });
    expect(first.status).toBe(200);
    const renew = (ticket: string) => post(handler, { ...token, _upload: { strategy: 'temporary-token', renew: { ticket } } });

    hours(23);
    const second = await renew(first.body.ticket);
    expect(second.status).toBe(200);
    hours(23.9);
    const third = await renew(second.body.ticket);
    expect(third.status).toBe(200);
    // 6 minutes were left: STS's shortest lifetime (900 s) is asked for, not another hour.
    expect(durations).toEqual([3600, 3600, 900]);

    // The last receipt ends 26 h after the first preparation (it is refused before storage is asked).
    const receiptEnd = Number(third.body.receipt.split('.')[0]);
    expect(receiptEnd).toBeLessThanOrEqual(t0 / 1000 + 26 * 3600);
    hours(26 + 1 / 60);
    const late = await post(handler, { ...token, _upload: { strategy: 'temporary-token', complete: { key: first.body.key, receipt: third.body.receipt } } });
    expect(late).toMatchObject({ status: 400, body: { error: 'The upload receipt has expired.' } });
    expect(hook).not.toHaveBeenCalled();

    // No renewal past the end, however late.
    hours(24 + 1 / 60);
    expect(await renew(third.body.ticket)).toMatchObject({ status: 403, body: { code: 'TICKET_EXPIRED' } });
    hours(46);
    expect(await renew(third.body.ticket)).toMatchObject({ status: 403, body: { code: 'TICKET_EXPIRED' } });
  });

  it('a half-written completion marker is read as a claim (no 500); once stale, the report runs the hook', async () => {
    const hook = vi.fn(() => ({ ok: true }));
    const handler = createUploadHandler(appConfig(storage, hook));
    const prepared = await post(handler, presigned('image/png', 10));
    expect((await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(10) })).status).toBe(200);
    const admin = storage.createClient();
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: prepared.body.key }));
    const idempotencyKey = createHash('sha256')
      .update(`${storage.bucket}\n${prepared.body.key}\n${head.ETag}\n${head.LastModified!.toISOString()}`)
      .digest('base64url');
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: `${COMPLETION_MARKER_PREFIX}${idempotencyKey}.json`, Body: '{"state":"runn' }));
    admin.destroy();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    const report = await post(handler, { ...presigned('image/png', 10), _upload: { strategy: 'presigned', complete: { key: prepared.body.key, receipt: prepared.body.receipt } } });
    expect(report.status).toBe(200);
    expect(hook).toHaveBeenCalledTimes(1);
  });
});

describe.skipIf(!connection)('hole 5: receipts and tickets worked across handlers sharing credentials (radosgw)', () => {
  let storage: RadosgwBucket;
  let roleArn: string;
  beforeAll(async () => {
    storage = await createTestBucket(connection!, 'handlers');
    roleArn = await createUploadRole(connection!);
  });

  it("an open endpoint's receipt, multipart ticket and renew ticket are refused by an admin endpoint with the same credentials", async () => {
    const userHook = vi.fn(() => ({ ok: true }));
    const adminHook = vi.fn(() => ({ admin: true }));
    const user = createUploadHandler({ ...appConfig(storage, userHook), ...tokenHandlerSettings(connection!, storage.bucket, roleArn) });
    const admin = createUploadHandler({
      ...appConfig(storage, adminHook),
      ...tokenHandlerSettings(connection!, storage.bucket, roleArn),
      keyPrefix: 'admin/',
    });

    const prepared = await post(user, presigned('image/png', 10));
    expect((await fetch(prepared.body.url, { method: 'PUT', headers: prepared.body.headers, body: randomBytes(10) })).status).toBe(200);
    const complete = { ...presigned('image/png', 10), _upload: { strategy: 'presigned', complete: { key: prepared.body.key, receipt: prepared.body.receipt } } };
    expect(await post(admin, complete)).toMatchObject({ status: 400, body: { error: 'The upload receipt is not valid for this key.' } });
    expect(adminHook).not.toHaveBeenCalled();
    expect((await post(user, complete)).status).toBe(200);
    expect(userHook).toHaveBeenCalledTimes(1);

    const multipart = (action: object) => ({ ...presigned('image/png', 6 * MiB), _upload: { strategy: 'presigned', multipart: action } });
    const created = await post(user, multipart({ action: 'create', partSize: 5 * MiB }));
    expect(created.status).toBe(200);
    const ticket = created.body.ticket;
    expect(await post(admin, multipart({ action: 'sign-parts', ticket, partNumbers: [1] }))).toMatchObject({ status: 403, body: { code: 'INVALID_TICKET' } });
    expect(await post(admin, multipart({ action: 'complete', ticket, parts: [{ partNumber: 1, etag: '"x"' }, { partNumber: 2, etag: '"y"' }] }))).toMatchObject({ status: 403 });
    expect((await post(user, multipart({ action: 'abort', ticket }))).status).toBe(200);

    const token = await post(user, { filename: 'cat.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'temporary-token' } });
    expect(token.status).toBe(200);
    const renew = { filename: 'cat.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'temporary-token', renew: { ticket: token.body.ticket } } };
    expect(await post(admin, renew)).toMatchObject({ status: 403, body: { code: 'INVALID_TICKET' } });
    expect((await post(user, renew)).status).toBe(200);
  });
});

describe.skipIf(!connection)('hole 6: the browser\'s token could assume other roles (radosgw)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the handler hands out no token while one could assume another role the server can list (500, logged with the role and the condition); the doctor names it; fixed, tokens are handed out', async () => {
    // A server user of its own (not `test`): the open role below is seen by this test's handlers only.
    const server = otherUserConnection(connection!, 0);
    const user = OTHER_USERS[0]!.arn;
    const storage = await createTestBucket(server, 'roles');
    const roleArn = await createUploadRole(server, { trustPolicy: uploadRoleTrustPolicy(user) });
    const otherName = `upbeam-other-${Math.random().toString(36).slice(2, 10)}`;
    const other = await createUploadRole(server, { name: otherName, trustPolicy: chainableRoleTrustPolicy(user) });
    const config = { ...tokenHandlerSettings(server, storage.bucket, roleArn), env: {} };

    // The attack, by hand: a one-key upload token (as the handler issued them) assumes the other role.
    const keys = { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey };
    const sts = new STSClient({ region: server.region, endpoint: server.endpoint, credentials: keys });
    const oneKey = uploadTokenPolicy({ bucket: storage.bucket, key: 'next-s3-uploads/x/cat.png', region: server.region });
    const issued = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: 'upload', DurationSeconds: 900, Policy: oneKey }));
    sts.destroy();
    const { AccessKeyId, SecretAccessKey, SessionToken } = issued.Credentials!;
    const tokenSts = new STSClient({
      region: server.region,
      endpoint: server.endpoint,
      credentials: { accessKeyId: AccessKeyId!, secretAccessKey: SecretAccessKey!, sessionToken: SessionToken! },
      maxAttempts: 1,
    });
    const escalated = await tokenSts.send(new AssumeRoleCommand({ RoleArn: other, RoleSessionName: 'escalate', DurationSeconds: 900 })).then(
      () => 200,
      (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
    );
    tokenSts.destroy();
    expect(escalated).toBe(200);

    // The handler makes the same attempt with its first token and hands out none.
    const logged: unknown[] = [];
    const handler = createUploadHandler({ ...config, onError: (error) => logged.push(error) });
    const token = { filename: 'cat.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'temporary-token' } };
    expect(await post(handler, token)).toEqual({ status: 500, body: { error: 'Internal Server Error' } });
    expect(isUploadError(logged[0]) && logged[0].code).toBe('INVALID_SETTINGS');
    expect((logged[0] as Error).message).toContain(other);
    expect((logged[0] as Error).message).toContain('"Null": {"aws:TokenIssueTime": "true"}');

    const before = byCheck(await diagnoseUploadConfig(config), 'sts-roles');
    expect(before.status).toBe('fail');
    expect(before.message).toContain(other);

    const iam = new IAMClient({ region: server.region, endpoint: server.endpoint, credentials: keys });
    await iam.send(new UpdateAssumeRolePolicyCommand({ RoleName: otherName, PolicyDocument: uploadRoleTrustPolicy(user) }));
    iam.destroy();
    const after = byCheck(await diagnoseUploadConfig(config), 'sts-roles');
    expect(after.message).not.toContain(other);
    // The refusal is kept a minute, then STS is asked again: no restart once the trust policy is fixed.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + OTHER_ROLES_RECHECK_MS });
    expect((await post(createUploadHandler(config), token)).status).toBe(200);
  });
});
