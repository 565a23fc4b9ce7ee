import { AssumeRoleCommand, GetFederationTokenCommand } from '@aws-sdk/client-sts';
import { describe, expect, it, vi } from 'vitest';
import { UploadError } from './errors';
import { createUploadHandler } from './handler';
import { arnPartition, uploadTokenPolicy } from './temporary-token';

const settings = { accessKeyId: 'AKID', secretAccessKey: 'SECRET', bucket: 'my-bucket', region: 'eu-west-1' };

/**
 * A stubbed STS client: GetFederationToken has no local implementation (radosgw answers 405, s3rver has
 * no STS), so these tests capture the exact request instead of sending it. AssumeRole is tested for real
 * against radosgw in test/.
 */
function stubSts(answer: object = {}) {
  const sent: unknown[] = [];
  const expiration = new Date('2026-11-22T10:00:00Z');
  const send = vi.fn(async (command: unknown) => {
    sent.push(command);
    return {
      Credentials: { AccessKeyId: 'ASIATEMP', SecretAccessKey: 'temp-secret', SessionToken: 'temp-token', Expiration: expiration },
      FederatedUser: { Arn: 'arn:aws:sts::123456789012:federated-user/S3UploadWebToken', FederatedUserId: '123456789012:S3UploadWebToken' },
      PackedPolicySize: 12,
      ...answer,
    };
  });
  return { stsClient: { send } as never, sent };
}

function post(body: object): Request {
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename: 'clip.mp4', filetype: 'video/mp4', _upload: { strategy: 'temporary-token' }, ...body }),
  });
}

describe('temporary-token strategy, GetFederationToken (stubbed STS client: no local STS implements it)', () => {
  it('sends Name S3UploadWebToken (<= 32 chars), DurationSeconds 3600 and a policy for the one key', async () => {
    const { stsClient, sent } = stubSts();
    const response = await createUploadHandler({ ...settings, stsClient })(post({}));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(sent).toHaveLength(1);
    const command = sent[0] as GetFederationTokenCommand;
    expect(command).toBeInstanceOf(GetFederationTokenCommand);
    expect(command.input.Name).toBe('S3UploadWebToken');
    expect(command.input.Name!.length).toBeLessThanOrEqual(32);
    expect(command.input.DurationSeconds).toBe(3600);
    expect(JSON.parse(command.input.Policy!)).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'UpbeamUploadOneObject',
          Effect: 'Allow',
          Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
          Resource: [`arn:aws:s3:::my-bucket/${body.key}`],
        },
        {
          Effect: 'Deny',
          Action: ['s3:PutObject'],
          Resource: ['*'],
          Condition: { StringEquals: { 's3:x-amz-acl': ['public-read', 'public-read-write', 'authenticated-read'] } },
        },
        ...['read', 'write', 'read-acp', 'write-acp', 'full-control'].map((grant) => ({
          Effect: 'Deny',
          Action: ['s3:PutObject'],
          Resource: ['*'],
          Condition: { StringLike: { [`s3:x-amz-grant-${grant}`]: '*' } },
        })),
        ...['mode', 'retain-until-date', 'legal-hold'].map((lock) => ({
          Effect: 'Deny',
          Action: ['s3:PutObject'],
          Resource: ['*'],
          Condition: { StringLike: { [`s3:object-lock-${lock}`]: '*' } },
        })),
      ],
    });
  });

  it('answers { token: { Credentials }, key, bucket, region, checksum, ifNoneMatch, ticket, serverTime } and nothing else of the STS answer', async () => {
    const { stsClient } = stubSts();
    const before = Date.now();
    const response = await createUploadHandler({ ...settings, stsClient })(post({}));
    const text = await response.text();
    const body = JSON.parse(text);
    expect(Object.keys(body).sort()).toEqual(['bucket', 'checksum', 'ifNoneMatch', 'key', 'region', 'serverTime', 'ticket', 'token']);
    // AWS S3's defaults: the browser signs a CRC64NVME (no value needed first) and If-None-Match: * itself.
    expect(body).toMatchObject({ checksum: 'crc64nvme', ifNoneMatch: true });
    expect(Date.parse(body.serverTime)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.serverTime)).toBeLessThanOrEqual(Date.now());
    expect(body.ticket).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(body.token).toEqual({
      Credentials: {
        AccessKeyId: 'ASIATEMP',
        SecretAccessKey: 'temp-secret',
        SessionToken: 'temp-token',
        Expiration: '2026-11-22T10:00:00.000Z',
      },
    });
    expect(body.key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/clip\.mp4$/);
    expect(text).not.toContain('123456789012');
    expect(text).not.toContain('FederatedUser');
  });

  it('adds endpoint and forcePathStyle for S3-compatible storage', async () => {
    const { stsClient } = stubSts();
    // No storage listens there: its object-lock check is skipped (it is tested against radosgw in test/).
    const handler = createUploadHandler({ ...settings, stsClient, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, checkUnsignedHeaders: false });
    const body = await (await handler(post({}))).json();
    expect(body).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
  });

  it('uses AssumeRole with the same session policy when a role ARN is set (S3_UPLOAD_ROLE_ARN too)', async () => {
    const { stsClient, sent } = stubSts();
    const saved = process.env.S3_UPLOAD_ROLE_ARN;
    process.env.S3_UPLOAD_ROLE_ARN = 'arn:aws:iam::123456789012:role/uploader';
    try {
      const body = await (await createUploadHandler({ ...settings, stsClient })(post({}))).json();
      const command = sent[0] as AssumeRoleCommand;
      expect(command).toBeInstanceOf(AssumeRoleCommand);
      expect(command.input).toMatchObject({
        RoleArn: 'arn:aws:iam::123456789012:role/uploader',
        RoleSessionName: 'S3UploadWebToken',
        DurationSeconds: 3600,
      });
      expect(JSON.parse(command.input.Policy!).Statement[0].Resource).toEqual([`arn:aws:s3:::my-bucket/${body.key}`]);
    } finally {
      if (saved === undefined) delete process.env.S3_UPLOAD_ROLE_ARN;
      else process.env.S3_UPLOAD_ROLE_ARN = saved;
    }
  });

  it('answers an STS failure with the 500 of SPEC 7.1 and never forwards its text (it can name the account)', async () => {
    const failure = Object.assign(new Error('User: arn:aws:iam::123456789012:user/app is not authorized to perform: sts:GetFederationToken'), {
      name: 'AccessDenied',
    });
    const onError = vi.fn();
    const stsClient = { send: vi.fn().mockRejectedValue(failure) } as never;
    const response = await createUploadHandler({ ...settings, stsClient, onError })(post({}));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal Server Error' });
    expect(text).not.toContain('arn:');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR', cause: failure }));
  });
});

describe('temporary-token lifetime and renewal', () => {
  const renewBody = (ticket: string) => ({ _upload: { strategy: 'temporary-token', renew: { ticket } } });

  it('asks STS for tokenDurationSeconds, and always answers an Expiration (computed when STS leaves it out)', async () => {
    const { stsClient, sent } = stubSts({
      Credentials: { AccessKeyId: 'ASIATEMP', SecretAccessKey: 'temp-secret', SessionToken: 'temp-token' },
    });
    const before = Date.now();
    const body = await (await createUploadHandler({ ...settings, stsClient, tokenDurationSeconds: 900 })(post({}))).json();
    expect((sent[0] as GetFederationTokenCommand).input.DurationSeconds).toBe(900);
    const expiresIn = Date.parse(body.token.Credentials.Expiration) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(899_000);
    expect(expiresIn).toBeLessThanOrEqual(901_000);
  });

  it.each([899, 129_601, 1800.5, Number.NaN])('refuses tokenDurationSeconds %s as an invalid setting (500, logged)', async (seconds) => {
    const onError = vi.fn();
    const { stsClient, sent } = stubSts();
    const response = await createUploadHandler({ ...settings, stsClient, tokenDurationSeconds: seconds, onError })(post({}));
    expect(response.status).toBe(500);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'INVALID_SETTINGS' });
    expect(sent).toHaveLength(0);
  });

  it('renews for the key of the ticket, whatever the body or onBeforeUpload say, with a fresh ticket', async () => {
    const { stsClient, sent } = stubSts();
    const onBeforeUpload = vi.fn(() => ({ key: `next-s3-uploads/new-${sent.length}/clip.mp4` }));
    const handler = createUploadHandler({ ...settings, stsClient, onBeforeUpload });
    const first = await (await handler(post({}))).json();
    const renewed = await handler(post({ ...renewBody(first.ticket), filename: 'other.mp4' }));
    expect(renewed.status).toBe(200);
    const body = await renewed.json();
    expect(body.key).toBe(first.key);
    expect(onBeforeUpload).toHaveBeenCalledTimes(2);
    expect(JSON.parse((sent[1] as GetFederationTokenCommand).input.Policy!).Statement[0].Resource).toEqual([
      `arn:aws:s3:::my-bucket/${first.key}`,
    ]);
    expect(typeof body.ticket).toBe('string');
    expect(typeof body.serverTime).toBe('string');
  });

  it('runs onBeforeUpload again on renewal: a signed-out user gets its 401, and no credentials', async () => {
    const { stsClient, sent } = stubSts();
    let signedIn = true;
    const handler = createUploadHandler({
      ...settings,
      stsClient,
      onBeforeUpload: () => {
        if (!signedIn) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
      },
    });
    const first = await (await handler(post({}))).json();
    signedIn = false;
    const renewed = await handler(post(renewBody(first.ticket)));
    expect(renewed.status).toBe(401);
    expect(sent).toHaveLength(1);
  });

  it('refuses a renew ticket that was altered, is of another kind, or is from another bucket (403 INVALID_TICKET)', async () => {
    const { stsClient } = stubSts();
    const handler = createUploadHandler({ ...settings, stsClient });
    const first = await (await handler(post({}))).json();
    const [payload, signature] = first.ticket.split('.');
    const fields = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const altered = `${Buffer.from(JSON.stringify({ ...fields, key: 'next-s3-uploads/x/other.mp4' })).toString('base64url')}.${signature}`;
    const otherBucket = await (await createUploadHandler({ ...settings, bucket: 'other-bucket', stsClient })(post({}))).json();
    const receipt = await (await createUploadHandler({ ...settings, stsClient, maxFileSize: 10 })(post({ filesize: 1 }))).json();
    for (const ticket of [altered, otherBucket.ticket, receipt.receipt, `${first.ticket}A`]) {
      const response = await handler(post(renewBody(ticket)));
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'INVALID_TICKET' });
    }
  });

  it('gives a fresh receipt with renewed credentials when the size is limited', async () => {
    const { stsClient } = stubSts();
    const handler = createUploadHandler({ ...settings, stsClient, maxFileSize: 100 });
    const first = await (await handler(post({ filesize: 50 }))).json();
    const renewed = await (await handler(post({ ...renewBody(first.ticket), filesize: 50 }))).json();
    expect(renewed.receipt).toMatch(/^\d+\.[\w-]{43}$/);
    expect(renewed.key).toBe(first.key);
  });
});

describe('uploadTokenPolicy', () => {
  it.each([
    ['us-east-1', 'aws'],
    ['eu-central-1', 'aws'],
    ['cn-north-1', 'aws-cn'],
    ['cn-northwest-1', 'aws-cn'],
    ['us-gov-west-1', 'aws-us-gov'],
  ])('region %s uses partition %s', (region, partition) => {
    expect(arnPartition(region)).toBe(partition);
    const policy = JSON.parse(uploadTokenPolicy({ bucket: 'b', key: 'k', region }));
    expect(policy.Statement[0].Resource).toEqual([`arn:${partition}:s3:::b/k`]);
  });

  it('writes IAM wildcard characters in the key literally, so the policy never covers other keys', () => {
    const policy = JSON.parse(uploadTokenPolicy({ bucket: 'b', key: "uploads/*/a?b$c.txt", region: 'us-east-1' }));
    expect(policy.Statement[0].Resource).toEqual(['arn:aws:s3:::b/uploads/${*}/a${?}b${$}c.txt']);
  });

  it('allows tagging only when asked', () => {
    const policy = JSON.parse(uploadTokenPolicy({ bucket: 'b', key: 'k', region: 'us-east-1', allowObjectTagging: true }));
    expect(policy.Statement[0].Action).toEqual(['s3:PutObject', 's3:AbortMultipartUpload', 's3:PutObjectTagging']);
  });

  it('denies a PutObject with any object-lock header (mode, retain-until date, legal hold), present with any value', () => {
    const policy = JSON.parse(uploadTokenPolicy({ bucket: 'b', key: 'k', region: 'us-east-1' }));
    for (const key of ['s3:object-lock-mode', 's3:object-lock-retain-until-date', 's3:object-lock-legal-hold']) {
      expect(policy.Statement).toContainEqual({ Effect: 'Deny', Action: ['s3:PutObject'], Resource: ['*'], Condition: { StringLike: { [key]: '*' } } });
    }
  });
});
