import { randomBytes } from 'node:crypto';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutObjectAclCommand,
  PutObjectCommand,
  UploadPartCommand,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, GetSessionTokenCommand, STSClient } from '@aws-sdk/client-sts';
import {
  chainableRoleTrustPolicy,
  createTestBucket,
  createUploadRole,
  OTHER_USERS,
  otherUserConnection,
  radosgwS3Client,
  tokenHandlerSettings,
  type RadosgwBucket,
} from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { unsignedHeaderBucketPolicy } from '../src/doctor/index';
import { createUploadHandler, isUploadError, type UploadHandlerConfig } from '../src/index';

// The attacks of the 2026-11-23 security review, each against a real Ceph radosgw (16.2), with what the
// browser gets from the handler: an upload token (temporary-token strategy) or a presigned URL and its
// headers. What the server cannot close is pinned here as radosgw's behaviour, and docs/guide/security.md names
// the storage setting or strategy that closes it.

const connection = inject('radosgw');
const ALL_USERS = 'uri="http://acs.amazonaws.com/groups/global/AllUsers"';

/** The status of a call: 200 when it succeeds, else the HTTP status of its error. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return 200;
  } catch (error) {
    return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  }
}

function post(strategy: 'presigned' | 'temporary-token', filename = 'photo.png'): Request {
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename, filetype: 'image/png', _upload: { strategy } }),
  });
}

describe.skipIf(!connection)('security on radosgw', () => {
  let storage: RadosgwBucket;
  let admin: S3Client;
  let roleArn: string;
  const clients: { destroy(): void }[] = [];

  beforeAll(async () => {
    storage = await createTestBucket(connection!, 'security');
    admin = storage.createClient();
    roleArn = await createUploadRole(connection!);
  });
  afterAll(() => {
    admin?.destroy();
    for (const client of clients) client.destroy();
  });

  /** Anyone's GET of the key, with no credentials at all. */
  const anonymousGet = (key: string) => fetch(`${connection!.endpoint}/${storage.bucket}/${key}`).then((response) => response.status);

  /** The handler's temporary-token answer, and S3 and STS clients with the browser's credentials. */
  async function token(config: UploadHandlerConfig = {}) {
    const handler = createUploadHandler({ ...tokenHandlerSettings(connection!, storage.bucket, roleArn), ...config });
    const response = await handler(post('temporary-token'));
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    const { AccessKeyId, SecretAccessKey, SessionToken } = body.token.Credentials;
    const credentials = { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: SessionToken };
    const s3 = radosgwS3Client(connection!, credentials);
    const sts = new STSClient({ region: connection!.region, endpoint: connection!.endpoint, credentials, maxAttempts: 1 });
    clients.push(s3, sts);
    return { key: body.key as string, s3, sts };
  }

  describe('item 1: the upload token cannot escalate (trust policy with Null aws:TokenIssueTime)', () => {
    it('STS AssumeRole of the same role with the token is refused (403), with and without a session policy', async () => {
      const { sts } = await token();
      const again = (Policy?: string) =>
        sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: 'escalate', DurationSeconds: 900, ...(Policy ? { Policy } : {}) }));
      expect(await statusOf(again())).toBe(403);
      const everything = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['s3:*'], Resource: ['*'] }] });
      expect(await statusOf(again(everything))).toBe(403);
    });

    it('STS GetSessionToken with the token is refused (403)', async () => {
      const { sts } = await token();
      expect(await statusOf(sts.send(new GetSessionTokenCommand({ DurationSeconds: 900 })))).toBe(403);
    });

    it('S3 calls outside the one key are refused (403)', async () => {
      const { key, s3 } = await token();
      const other = `${key}.other`;
      await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: other, Body: 'victim' }));
      const bucket = storage.bucket;
      expect(await statusOf(s3.send(new PutObjectCommand({ Bucket: bucket, Key: other, Body: 'overwritten' })))).toBe(403);
      expect(await statusOf(s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: other })))).toBe(403);
      expect(await statusOf(s3.send(new GetObjectCommand({ Bucket: bucket, Key: other })))).toBe(403);
      expect(await statusOf(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: other })))).toBe(403);
      expect(await statusOf(s3.send(new ListObjectsV2Command({ Bucket: bucket })))).toBe(403);
      expect(await statusOf(s3.send(new CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: `${bucket}/${other}` })))).toBe(403);
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'mine' }));
      expect(await statusOf(s3.send(new PutObjectAclCommand({ Bucket: bucket, Key: key, ACL: 'public-read' })))).toBe(403);
      const victim = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: other }));
      expect(await victim.Body!.transformToString()).toBe('victim');
    });

    it('a role whose trust policy lets its sessions assume it again: the token can (the attack), so the handler refuses to hand out tokens', async () => {
      // A server user of its own (not `test`): every handler of the run checks the roles its tokens could assume.
      const server = otherUserConnection(connection!, 1);
      const chainable = await createUploadRole(server, { trustPolicy: chainableRoleTrustPolicy(OTHER_USERS[1]!.arn) });
      // The attack, done by hand: a one-key token assumes the role again and gets the role's full rights.
      const sts = new STSClient({ region: server.region, endpoint: server.endpoint, credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey } });
      clients.push(sts);
      const oneKey = JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: [`arn:aws:s3:::${storage.bucket}/only`] }],
      });
      const issued = await sts.send(new AssumeRoleCommand({ RoleArn: chainable, RoleSessionName: 'upload', DurationSeconds: 900, Policy: oneKey }));
      const { AccessKeyId, SecretAccessKey, SessionToken } = issued.Credentials!;
      const tokenSts = new STSClient({
        region: connection!.region,
        endpoint: connection!.endpoint,
        credentials: { accessKeyId: AccessKeyId!, secretAccessKey: SecretAccessKey!, sessionToken: SessionToken! },
      });
      clients.push(tokenSts);
      expect(await statusOf(tokenSts.send(new AssumeRoleCommand({ RoleArn: chainable, RoleSessionName: 'escalate', DurationSeconds: 900 })))).toBe(200);

      // The handler tries the same with its first token and refuses, with the condition that closes it in its log.
      const logged: unknown[] = [];
      const handler = createUploadHandler({
        ...tokenHandlerSettings(server, storage.bucket, chainable),
        onError: (error) => logged.push(error),
      });
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await handler(post('temporary-token'));
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual({ error: 'Internal Server Error' });
      }
      expect(logged).toHaveLength(2);
      expect(isUploadError(logged[0]) && logged[0].code).toBe('INVALID_SETTINGS');
      expect(String((logged[0] as Error).message)).toContain('"Null": {"aws:TokenIssueTime": "true"}');
    });
  });

  describe('item 2, temporary-token strategy: the session policy refuses public ACLs and grants', () => {
    const attempts: [string, Partial<PutObjectCommandInput>][] = [
      ['x-amz-acl: public-read', { ACL: 'public-read' }],
      ['x-amz-acl: public-read-write', { ACL: 'public-read-write' }],
      ['x-amz-acl: authenticated-read', { ACL: 'authenticated-read' }],
      ['x-amz-grant-read', { GrantRead: ALL_USERS }],
      ['x-amz-grant-read-acp', { GrantReadACP: ALL_USERS }],
      ['x-amz-grant-write-acp', { GrantWriteACP: ALL_USERS }],
      ['x-amz-grant-full-control', { GrantFullControl: ALL_USERS }],
    ];

    it.each(attempts)('PutObject with %s: 403, and the object stays private', async (_, extra) => {
      const { key, s3 } = await token();
      expect(await statusOf(s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: 'x', ...extra })))).toBe(403);
      expect(await anonymousGet(key)).not.toBe(200);
    });

    it('PutObject with x-amz-acl private (what the client signs) or no ACL header: 200, not readable anonymously', async () => {
      const { key, s3 } = await token();
      expect(await statusOf(s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: 'x', ACL: 'private' })))).toBe(200);
      expect(await statusOf(s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: 'x' })))).toBe(200);
      expect(await anonymousGet(key)).toBe(403);
    });

    it('radosgw gap (security guide): CreateMultipartUpload with public-read is not checked against the session policy; the completed object is public', async () => {
      const { key, s3 } = await token();
      const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: storage.bucket, Key: key, ACL: 'public-read' }));
      const { ETag } = await s3.send(new UploadPartCommand({ Bucket: storage.bucket, Key: key, UploadId, PartNumber: 1, Body: 'x' }));
      await s3.send(
        new CompleteMultipartUploadCommand({ Bucket: storage.bucket, Key: key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }),
      );
      expect(await anonymousGet(key)).toBe(200);
    });

    it('radosgw stores unsigned x-amz-tagging, x-amz-meta-* and x-amz-website-redirect-location sent with the token (security guide: no condition key closes them)', async () => {
      const { key, s3 } = await token();
      const extras: Partial<PutObjectCommandInput>[] = [{ Tagging: 'a=b' }, { Metadata: { injected: 'yes' } }, { WebsiteRedirectLocation: '/elsewhere' }];
      for (const extra of extras) {
        expect(await statusOf(s3.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: 'x', ...extra })))).toBe(200);
      }
    });
  });

  describe('item 2, presigned strategy: the canned ACL is a signed header', () => {
    async function presigned(filename = 'photo.png') {
      const handler = createUploadHandler(storage.handlerSettings);
      const response = await handler(post('presigned', filename));
      expect(response.status).toBe(200);
      return (await response.json()) as { key: string; url: string; headers: Record<string, string> };
    }
    const put = (url: string, headers: Record<string, string>) =>
      fetch(url, { method: 'PUT', body: new Uint8Array([137, 80, 78, 71]), headers }).then((response) => response.status);

    it('the headers as given (x-amz-acl: private) store a private object', async () => {
      const { key, url, headers } = await presigned();
      expect(headers['x-amz-acl']).toBe('private');
      expect(await put(url, headers)).toBe(200);
      expect(await anonymousGet(key)).toBe(403);
    });

    it.each(['public-read', 'public-read-write', 'authenticated-read'])('x-amz-acl changed to %s: 403, the object is not stored public', async (acl) => {
      const { key, url, headers } = await presigned();
      expect(await put(url, { ...headers, 'x-amz-acl': acl })).toBe(403);
      expect(await anonymousGet(key)).not.toBe(200);
    });

    it('x-amz-acl left out: 403 (it is signed)', async () => {
      const { url, headers } = await presigned();
      const { 'x-amz-acl': _, ...rest } = headers;
      expect(await put(url, rest)).toBe(403);
    });

    it.each(['x-amz-grant-read', 'x-amz-grant-read-acp', 'x-amz-grant-write-acp', 'x-amz-grant-full-control'])(
      '%s added: refused (radosgw 400: a canned ACL and grants together), nothing public',
      async (grant) => {
        const { key, url, headers } = await presigned();
        expect(await put(url, { ...headers, [grant]: ALL_USERS })).toBe(400);
        expect(await anonymousGet(key)).not.toBe(200);
      },
    );

    it('radosgw stores unsigned x-amz-meta-* and x-amz-website-redirect-location added to a presigned PUT (security guide); x-amz-tagging is signed (empty), so an added tag is refused', async () => {
      const { url, headers } = await presigned();
      expect(headers['x-amz-tagging']).toBe('');
      expect(await put(url, { ...headers, 'x-amz-tagging': 'a=b' })).toBe(403);
      expect(await put(url, { ...headers, 'x-amz-meta-injected': 'yes' })).toBe(200);
      expect(await put(url, { ...headers, 'x-amz-website-redirect-location': '/elsewhere' })).toBe(200);
    });
  });

  describe('the Ceph bucket policy of the security guide (for a handler with objectAcl none, or any other writer)', () => {
    let guarded: RadosgwBucket;
    beforeAll(async () => {
      guarded = await createTestBucket(connection!, 'guarded');
      await admin.send(new PutBucketPolicyCommand({ Bucket: guarded.bucket, Policy: cephBucketPolicy(guarded.bucket) }));
    });

    it('refuses public canned ACLs and grants on PutObject, even from the bucket owner, and lets a plain PUT through', async () => {
      const owner = guarded.createClient();
      clients.push(owner);
      const put = (extra: Partial<PutObjectCommandInput>) =>
        statusOf(owner.send(new PutObjectCommand({ Bucket: guarded.bucket, Key: 'k', Body: 'x', ...extra })));
      expect(await put({ ACL: 'public-read' })).toBe(403);
      expect(await put({ ACL: 'public-read-write' })).toBe(403);
      expect(await put({ GrantRead: ALL_USERS })).toBe(403);
      expect(await put({ GrantFullControl: ALL_USERS })).toBe(403);
      expect(await put({})).toBe(200);
      expect(await put({ ACL: 'private' })).toBe(200);
    });
  });
});

/** The bucket policy docs/guide/security.md gives for Ceph, as the doctor prints it. */
function cephBucketPolicy(bucket: string): string {
  return JSON.stringify(unsignedHeaderBucketPolicy(bucket));
}
