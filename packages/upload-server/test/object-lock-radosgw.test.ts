import {
  CreateBucketCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutBucketPolicyCommand,
  PutObjectCommand,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { diagnoseUploadConfig, unsignedHeaderBucketPolicy } from '../src/doctor/index';
import { createUploadHandler, isUploadError, type UploadHandlerConfig } from '../src/index';
import { resolveStorageSettings } from '../src/settings';
import { uploadTokenPolicy } from '../src/temporary-token';
import { createCompletion } from '../src/upload-completion';
import type { UploadRecords } from '../src/upload-record';

// Issue 42, hole 3: object-lock headers make undeletable objects. On a radosgw 16.2 bucket with object lock
// (ObjectLockEnabledForBucket), a browser's PutObject may set COMPLIANCE retention or a legal hold; a later
// DeleteObject only adds a delete marker. Each test below is the attack, made as the browser or the server
// would make it; the handler tests failed before the fix (tokens were handed out, refused objects stayed).

const connection = inject('radosgw');
const suffix = Math.random().toString(36).slice(2, 8);
const lockedBucket = `locked-${suffix}`;
const plainBucket = `unlocked-${suffix}`;
/** Short retention: radosgw keeps a COMPLIANCE version until then (memstore: keep it small and brief). */
const RETENTION_MS = 30_000;

let admin: S3Client;
let roleArn: string;
const clients: { destroy(): void }[] = [];

beforeAll(async () => {
  if (!connection) return;
  admin = radosgwS3Client(connection);
  await admin.send(new CreateBucketCommand({ Bucket: lockedBucket, ObjectLockEnabledForBucket: true }));
  await createBucket(connection, plainBucket, { allowedOrigins: ['*'] });
  roleArn = await createUploadRole(connection);
});
afterAll(() => {
  admin?.destroy();
  for (const client of clients) client.destroy();
});

const status = async (call: Promise<unknown>) =>
  call.then(
    () => 200,
    (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode,
  );

function post(strategy: 'presigned' | 'temporary-token', filename = 'photo.png'): Request {
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename, filetype: 'image/png', _upload: { strategy } }),
  });
}

/** An S3 client with a token's credentials, as the browser holds them. */
function browserClient(credentials: { AccessKeyId?: string; SecretAccessKey?: string; SessionToken?: string }): S3Client {
  const client = radosgwS3Client(connection!, {
    accessKeyId: credentials.AccessKeyId!,
    secretAccessKey: credentials.SecretAccessKey!,
    sessionToken: credentials.SessionToken!,
  });
  clients.push(client);
  return client;
}

/** Every version and delete marker stored under `prefix`. */
async function versionsUnder(Bucket: string, Prefix: string) {
  const listed = await admin.send(new ListObjectVersionsCommand({ Bucket, Prefix }));
  return [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])].map((version) => version.Key);
}

const compliance = (): Partial<PutObjectCommandInput> => ({
  ObjectLockMode: 'COMPLIANCE',
  ObjectLockRetainUntilDate: new Date(Date.now() + RETENTION_MS),
});

describe.skipIf(!connection)('object lock on radosgw: no upload makes an undeletable object', () => {
  it('radosgw 16.2 applies the lock headers of a token whatever its session policy denies (why the handler checks storage)', async () => {
    const key = `pinned/${suffix}/photo.png`;
    const sts = new STSClient({ region: connection!.region, endpoint: connection!.endpoint, credentials: connection! });
    clients.push(sts);
    const Policy = uploadTokenPolicy({ bucket: lockedBucket, key, region: connection!.region });
    expect(Policy).toContain('s3:object-lock-mode');
    const { Credentials } = await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: 'pinned', DurationSeconds: 900, Policy }));
    const browser = browserClient(Credentials!);
    expect(await status(browser.send(new PutObjectCommand({ Bucket: lockedBucket, Key: key, Body: 'x', ...compliance() })))).toBe(200);
    const head = await admin.send(new HeadObjectCommand({ Bucket: lockedBucket, Key: key }));
    expect(head.ObjectLockMode).toBe('COMPLIANCE');
  });

  it('the handler hands out no upload token for a bucket with object lock where storage applies lock headers (500, logged with the fix), and leaves nothing behind', async () => {
    const logged: unknown[] = [];
    const handler = createUploadHandler({
      ...tokenHandlerSettings(connection!, lockedBucket, roleArn),
      keyPrefix: 'gate/',
      onError: (error) => logged.push(error),
    });
    const response = await handler(post('temporary-token'));
    const body = await response.json();
    if (response.status === 200) {
      // The attack the answer allowed: COMPLIANCE retention on the browser's own key, which nobody can delete.
      const browser = browserClient(body.token.Credentials);
      await browser.send(new PutObjectCommand({ Bucket: lockedBucket, Key: body.key, Body: 'x', ...compliance() }));
    }
    expect(response.status).toBe(500);
    expect(body).toEqual({ error: 'Internal Server Error' });
    expect(isUploadError(logged[0]) && logged[0].code).toBe('INVALID_SETTINGS');
    expect(String((logged[0] as Error).message)).toMatch(/object lock/i);
    // The verdict is kept: the next request is refused without asking storage again.
    expect((await handler(post('temporary-token'))).status).toBe(500);
    expect(await versionsUnder(lockedBucket, 'gate/')).toEqual([]);
  });

  it('on a bucket without object lock the token works, and storage refuses lock headers (400)', async () => {
    const handler = createUploadHandler(tokenHandlerSettings(connection!, plainBucket, roleArn));
    const response = await handler(post('temporary-token'));
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    const browser = browserClient(body.token.Credentials);
    const put = (extra: Partial<PutObjectCommandInput>) => status(browser.send(new PutObjectCommand({ Bucket: plainBucket, Key: body.key, Body: 'x', ...extra })));
    expect(await put({})).toBe(200);
    expect(await put(compliance())).toBe(400);
    expect(await put({ ObjectLockLegalHoldStatus: 'ON' })).toBe(400);
  });

  it('a presigned PUT with added, unsigned lock headers is applied by radosgw 16.2 even with unsignedHeaderBucketPolicy: the handler hands out no presigned PUT URL on that bucket (a multipart create is refused, a single upload gets a presigned POST)', async () => {
    const policy = unsignedHeaderBucketPolicy(lockedBucket);
    expect(JSON.stringify(policy)).toContain('s3:object-lock-legal-hold');
    await admin.send(new PutBucketPolicyCommand({ Bucket: lockedBucket, Policy: JSON.stringify(policy) }));
    const logged: unknown[] = [];
    const settings = { ...tokenHandlerSettings(connection!, lockedBucket, roleArn), keyPrefix: 'presigned/', onError: (error: unknown) => logged.push(error) };
    const multipart = new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'photo.png', filetype: 'image/png', filesize: 6 * 1024 * 1024, _upload: { strategy: 'presigned', multipart: { action: 'create', partSize: 5 * 1024 * 1024 } } }),
    });
    expect((await createUploadHandler(settings)(multipart)).status).toBe(500);
    expect(String((logged[0] as Error).message)).toMatch(/legal-hold/);
    // A POST's lock header is ignored and a lock field refused: presigned-post-storage.test.ts (issue 45 item 3).
    const single = await createUploadHandler(settings)(post('presigned'));
    expect(single.status).toBe(200);
    expect(await single.json()).toHaveProperty('fields');
    expect(await versionsUnder(lockedBucket, 'presigned/')).toEqual([]);
  });

  it('the doctor reports a bucket with object lock where an upload token can set a lock (fail), and a bucket without it as ok', async () => {
    const doctor = (bucket: string) =>
      diagnoseUploadConfig({ ...tokenHandlerSettings(connection!, bucket, roleArn), provider: 'ceph', keyPrefix: 'doctor/', env: {} });
    const locked = (await doctor(lockedBucket)).find((finding) => finding.check === 'object-lock');
    expect(locked).toMatchObject({ status: 'fail', message: expect.stringMatching(/has object lock/) });
    expect(await versionsUnder(lockedBucket, 'doctor/')).toEqual([]);
    const plain = (await doctor(plainBucket)).find((finding) => finding.check === 'object-lock');
    expect(plain).toMatchObject({ status: 'ok' });
  });

  describe('a refused object (too large) is really gone, or the completion says where it cannot be', () => {
    const config: UploadHandlerConfig = { maxFileSize: 4 };
    function completion(onError: (error: unknown) => void) {
      const settings = resolveStorageSettings(tokenHandlerSettings(connection!, lockedBucket, roleArn), {});
      const records = undefined as unknown as UploadRecords; // only `reconcile` reads records
      return createCompletion({ settings, client: admin, policy: config, onUploadComplete: undefined, records, onError });
    }
    const report = new Request('http://127.0.0.1/api/s3-upload', { method: 'POST' });

    it.each<[string, Partial<PutObjectCommandInput>]>([
      ['no lock', {}],
      ['a legal hold', { ObjectLockLegalHoldStatus: 'ON' }],
      ['GOVERNANCE retention', { ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: new Date(Date.now() + 3_600_000) }],
    ])('with %s: every version is deleted (not a delete marker), and the browser gets 413', async (name, lock) => {
      const key = `refused/${name.replace(/\W/g, '-')}/photo.png`;
      await admin.send(new PutObjectCommand({ Bucket: lockedBucket, Key: key, Body: 'too large', ContentType: 'image/png', ...lock }));
      const logged: unknown[] = [];
      await expect(completion((error) => logged.push(error)).complete(key, report)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
      expect(await versionsUnder(lockedBucket, key)).toEqual([]);
      expect(logged).toEqual([]);
    });

    it('with COMPLIANCE retention the version stays until its date: logged (which version, until when), and the browser still gets 413 without storage text', async () => {
      const key = 'refused/compliance/photo.png';
      const { VersionId } = await admin.send(new PutObjectCommand({ Bucket: lockedBucket, Key: key, Body: 'too large', ContentType: 'image/png', ...compliance() }));
      const logged: unknown[] = [];
      const handlerAnswer = completion((error) => logged.push(error)).complete(key, report);
      await expect(handlerAnswer).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.not.stringMatching(/AccessDenied|version/i) });
      expect(logged).toHaveLength(1);
      expect(String((logged[0] as Error).message)).toContain(VersionId!);
      expect(String((logged[0] as Error).message)).toMatch(/COMPLIANCE/);
      const stays = await admin.send(new HeadObjectCommand({ Bucket: lockedBucket, Key: key, VersionId }));
      expect(stays.ObjectLockMode).toBe('COMPLIANCE');
    });
  });
});
