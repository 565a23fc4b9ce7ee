import { createHash, randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createBucket, createUploadRole, radosgwS3Client, tokenHandlerSettings } from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler, type UploadHandlerConfig } from '../src/index';

// The temporary-token strategy against Ceph radosgw, a real S3 gateway with STS AssumeRole: credentials
// from the handler write their one key (single PUT and multipart) and nothing else; storage refuses
// parts under 5 MiB; an aborted multipart upload leaves nothing behind.

const connection = inject('radosgw');
const MiB = 1024 * 1024;
const bucket = `token-${Date.now().toString(36)}`;

let admin: S3Client;
let roleArn: string;

beforeAll(async () => {
  if (!connection) return;
  await createBucket(connection, bucket, { allowedOrigins: ['*'] });
  roleArn = await createUploadRole(connection);
  admin = radosgwS3Client(connection);
});
afterAll(() => admin?.destroy());

/** Asks a handler (the one-key policy, AssumeRole on radosgw) for credentials, as the browser would. */
async function prepare(filename: string, config: UploadHandlerConfig = {}) {
  const handler = createUploadHandler({ ...tokenHandlerSettings(connection!, bucket, roleArn), ...config });
  const response = await handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename, filetype: 'application/octet-stream', _upload: { strategy: 'temporary-token' } }),
    }),
  );
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  const { Credentials } = body.token;
  const client = radosgwS3Client(connection!, {
    accessKeyId: Credentials.AccessKeyId,
    secretAccessKey: Credentials.SecretAccessKey,
    sessionToken: Credentials.SessionToken,
  });
  return { key: body.key as string, client };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const status = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

describe.skipIf(!connection)('temporary-token strategy on radosgw (STS AssumeRole with the one-key session policy)', () => {
  it('the credentials PutObject their key', async () => {
    const { key, client } = await prepare('one.txt');
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'hello' }));
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(await object.Body!.transformToString()).toBe('hello');
    client.destroy();
  });

  it('the credentials are refused (403) on any other key, for reads, and for listing', async () => {
    const { key, client } = await prepare('two.txt');
    const other = key.replace(/two\.txt$/, 'other.txt');
    await expect(client.send(new PutObjectCommand({ Bucket: bucket, Key: other, Body: 'x' }))).rejects.toSatisfy((e) => status(e) === 403);
    await expect(client.send(new PutObjectCommand({ Bucket: bucket, Key: `${key}-suffix`, Body: 'x' }))).rejects.toSatisfy((e) => status(e) === 403);
    await expect(client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: other }))).rejects.toSatisfy((e) => status(e) === 403);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'mine' }));
    await expect(client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).rejects.toSatisfy((e) => status(e) === 403);
    await expect(client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).rejects.toSatisfy((e) => status(e) === 403);
    client.destroy();
  });

  it('a multipart upload of ~12 MiB with the credentials completes byte-identical', async () => {
    const { key, client } = await prepare('big.bin');
    const file = randomBytes(12 * MiB + 5);
    await new Upload({ client, params: { Bucket: bucket, Key: key, Body: file }, partSize: 5 * MiB, queueSize: 4 }).done();
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(object.ETag).toMatch(/-3"$/);
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(file));
    client.destroy();
  });

  it('storage refuses parts under 5 MiB except the last: CompleteMultipartUpload EntityTooSmall', async () => {
    const { key, client } = await prepare('small-parts.bin');
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const parts = [];
    for (const PartNumber of [1, 2]) {
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: randomBytes(MiB) }),
      );
      parts.push({ PartNumber, ETag });
    }
    await expect(
      client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } })),
    ).rejects.toMatchObject({ name: 'EntityTooSmall' });
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }));
    client.destroy();
  });

  it('the credentials may abort their own multipart upload: nothing is left behind', async () => {
    const { key, client } = await prepare('aborted.bin');
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: randomBytes(5 * MiB) }));
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }));
    const { Uploads = [] } = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
    expect(Uploads).toEqual([]);
    client.destroy();
  });

  it('with allowObjectTagging, the credentials may tag their object after upload (lib-storage tags)', async () => {
    const { key, client } = await prepare('t.txt', { allowObjectTagging: true });
    const tags = [{ Key: 'source', Value: 'upbeam' }];
    await new Upload({ client, params: { Bucket: bucket, Key: key, Body: 'tagged' }, tags }).done();
    const { TagSet } = await admin.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
    expect(TagSet).toEqual(tags);
    client.destroy();
  });

  it('without allowObjectTagging, tagging is refused (403)', async () => {
    const { key, client } = await prepare('untagged.txt');
    const upload = new Upload({ client, params: { Bucket: bucket, Key: key, Body: 'x' }, tags: [{ Key: 'a', Value: 'b' }] });
    await expect(upload.done()).rejects.toSatisfy((e) => status(e) === 403);
    client.destroy();
  });

  it('renews with a short lifetime (DurationSeconds 900): fresh credentials write the same key, and nothing else', async () => {
    const config = { tokenDurationSeconds: 900 };
    const handler = createUploadHandler({ ...tokenHandlerSettings(connection!, bucket, roleArn), ...config });
    const post = (body: object) =>
      handler(
        new Request('http://127.0.0.1/api/s3-upload', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ filename: 'long.bin', filetype: 'application/octet-stream', ...body }),
        }),
      );
    const first = await (await post({ _upload: { strategy: 'temporary-token' } })).json();
    const lifetime = (at: string) => (Date.parse(at) - Date.now()) / 1000;
    expect(lifetime(first.token.Credentials.Expiration)).toBeGreaterThan(800);
    expect(lifetime(first.token.Credentials.Expiration)).toBeLessThanOrEqual(900);
    expect(Math.abs(Date.parse(first.serverTime) - Date.now())).toBeLessThan(5000);

    const response = await post({ _upload: { strategy: 'temporary-token', renew: { ticket: first.ticket } } });
    expect(response.status).toBe(200);
    const renewed = await response.json();
    expect(renewed.key).toBe(first.key);
    expect(renewed.token.Credentials.AccessKeyId).not.toBe(first.token.Credentials.AccessKeyId);
    expect(lifetime(renewed.token.Credentials.Expiration)).toBeGreaterThan(800);
    const { Credentials } = renewed.token;
    const client = radosgwS3Client(connection!, {
      accessKeyId: Credentials.AccessKeyId,
      secretAccessKey: Credentials.SecretAccessKey,
      sessionToken: Credentials.SessionToken,
    });
    // A multipart upload started with the first credentials continues with the renewed ones.
    const starter = radosgwS3Client(connection!, {
      accessKeyId: first.token.Credentials.AccessKeyId,
      secretAccessKey: first.token.Credentials.SecretAccessKey,
      sessionToken: first.token.Credentials.SessionToken,
    });
    const { UploadId } = await starter.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: first.key }));
    const part = randomBytes(1024);
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: bucket, Key: first.key, UploadId, PartNumber: 1, Body: part }));
    await client.send(
      new CompleteMultipartUploadCommand({ Bucket: bucket, Key: first.key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }),
    );
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: first.key }));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(part));
    const other = first.key.replace(/long\.bin$/, 'other.bin');
    await expect(client.send(new PutObjectCommand({ Bucket: bucket, Key: other, Body: 'x' }))).rejects.toSatisfy((e) => status(e) === 403);
    client.destroy();
    starter.destroy();
  });

  it('serverTime corrects a skewed browser clock: storage refuses a signature 30 minutes off, accepts the corrected one', async () => {
    const handler = createUploadHandler(tokenHandlerSettings(connection!, bucket, roleArn));
    const browserClockOffset = -30 * 60_000; // the browser's clock is 30 minutes behind
    const browserNow = () => Date.now() + browserClockOffset;
    const sentAt = browserNow();
    const answer = await (
      await handler(
        new Request('http://127.0.0.1/api/s3-upload', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ filename: 'skew.txt', filetype: 'text/plain', _upload: { strategy: 'temporary-token' } }),
        }),
      )
    ).json();
    const { Credentials } = answer.token;
    const credentials = { accessKeyId: Credentials.AccessKeyId, secretAccessKey: Credentials.SecretAccessKey, sessionToken: Credentials.SessionToken };
    const signer = (systemClockOffset: number) =>
      new S3Client({
        region: connection!.region,
        endpoint: connection!.endpoint,
        forcePathStyle: true,
        credentials,
        systemClockOffset,
        maxAttempts: 1, // no SDK retry that would correct the clock by itself
        requestChecksumCalculation: 'WHEN_REQUIRED',
      });
    const skewed = signer(browserClockOffset);
    await expect(skewed.send(new PutObjectCommand({ Bucket: bucket, Key: answer.key, Body: 'x' }))).rejects.toMatchObject({
      name: 'RequestTimeTooSkewed',
    });
    // The browser's correction: the server's clock minus its own when the answer arrived (over 5 minutes).
    const correction = Date.parse(answer.serverTime) - sentAt;
    expect(Math.abs(correction)).toBeGreaterThan(300_000);
    const corrected = signer(browserClockOffset + correction);
    await corrected.send(new PutObjectCommand({ Bucket: bucket, Key: answer.key, Body: 'corrected' }));
    const object = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: answer.key }));
    expect(await object.Body!.transformToString()).toBe('corrected');
    skewed.destroy();
    corrected.destroy();
  });

  // AWS IAM reads `${*}` as a literal `*` (IAM User Guide, policy variables, special characters); radosgw
  // does not implement that escape and refuses the literal key too. Either way the policy never widens.
  it('a key with IAM wildcard characters never grants other keys', async () => {
    const { client } = await prepare('x', { key: () => 'next-s3-uploads/star/*' });
    await expect(
      client.send(new PutObjectCommand({ Bucket: bucket, Key: 'next-s3-uploads/star/anything.txt', Body: 'x' })),
    ).rejects.toSatisfy((e) => status(e) === 403);
    await expect(
      client.send(new PutObjectCommand({ Bucket: bucket, Key: 'next-s3-uploads/star/x', Body: 'x' })),
    ).rejects.toSatisfy((e) => status(e) === 403);
    client.destroy();
  });
});
