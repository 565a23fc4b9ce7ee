import { randomBytes } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient, type Credentials } from '@aws-sdk/client-sts';
import { createBucket, createUploadRole, radosgwS3Client } from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The ground the temporary-token strategy stands on, proven on Ceph radosgw (s3rver has no STS): STS
// AssumeRole with an inline session policy that allows s3:PutObject on one object key returns credentials
// that can upload that key and nothing else.

const radosgw = inject('radosgw');

/** The status of a refused call: radosgw's errors carry an empty message and sometimes no usable name. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return 200;
  } catch (error) {
    return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  }
}

// null only outside CI without radosgw installed: the global setup said so and how to install it.
describe.skipIf(!radosgw)('STS AssumeRole on radosgw with a one-key session policy', () => {
  const bucket = `sts-${randomBytes(4).toString('hex')}`;
  const key = 'next-s3-uploads/abc/report.pdf';
  let admin: S3Client;
  let scoped: S3Client;
  let credentials: Credentials;

  beforeAll(async () => {
    const connection = radosgw!;
    await createBucket(connection, bucket, { allowedOrigins: ['*'] });
    const roleArn = await createUploadRole(connection);
    const sts = new STSClient({
      region: connection.region,
      endpoint: connection.endpoint,
      credentials: { accessKeyId: connection.accessKeyId, secretAccessKey: connection.secretAccessKey },
    });
    try {
      const answer = await sts.send(
        new AssumeRoleCommand({
          RoleArn: roleArn,
          RoleSessionName: 'upbeam-upload',
          DurationSeconds: 900,
          Policy: JSON.stringify({
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: [`arn:aws:s3:::${bucket}/${key}`] }],
          }),
        }),
      );
      credentials = answer.Credentials!;
    } finally {
      sts.destroy();
    }
    admin = radosgwS3Client(connection);
    scoped = radosgwS3Client(connection, {
      accessKeyId: credentials.AccessKeyId!,
      secretAccessKey: credentials.SecretAccessKey!,
      sessionToken: credentials.SessionToken!,
    });
  });
  afterAll(() => {
    admin?.destroy();
    scoped?.destroy();
  });

  it('returns temporary credentials with a session token, valid for the requested duration', () => {
    expect(credentials.AccessKeyId).toBeTruthy();
    expect(credentials.SessionToken).toBeTruthy();
    const seconds = (credentials.Expiration!.getTime() - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(800);
    expect(seconds).toBeLessThanOrEqual(900);
  });

  it('can PutObject the key of the policy', async () => {
    const body = randomBytes(1024);
    await scoped.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/pdf' }));
    const stored = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(body)).toBe(true);
  });

  it('gets 403 on PutObject of another key', async () => {
    const other = scoped.send(new PutObjectCommand({ Bucket: bucket, Key: 'next-s3-uploads/abc/other.pdf', Body: 'x' }));
    expect(await statusOf(other)).toBe(403);
  });

  it('gets 403 on GetObject of its own key (the policy allows PutObject only)', async () => {
    expect(await statusOf(scoped.send(new GetObjectCommand({ Bucket: bucket, Key: key })))).toBe(403);
  });

  it('gets 403 on PutObject of the key without the session token', async () => {
    const tokenless = radosgwS3Client(radosgw!, {
      accessKeyId: credentials.AccessKeyId!,
      secretAccessKey: credentials.SecretAccessKey!,
    });
    try {
      expect(await statusOf(tokenless.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x' })))).toBe(403);
    } finally {
      tokenless.destroy();
    }
  });
});
