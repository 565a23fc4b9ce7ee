import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, GetFederationTokenCommand, STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../src/index';

// The local server against the AWS SDK, as an app's upload handler and a browser's engine use it: the
// multipart calls s3rver lacks, bucket calls, and the STS stand-in over HTTP. Its objects are kept in a
// folder of the test's own, so what an abort leaves on disk can be read.

const MiB = 1024 * 1024;
let storage: LocalS3;
let directory: string;
let s3: S3Client;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'upbeam-local-s3-test-'));
  storage = await startLocalS3({ directory, bucket: 'uploads' });
  s3 = storage.createClient();
});
afterAll(async () => {
  s3?.destroy();
  await storage?.close();
  await rm(directory, { recursive: true, force: true });
});

const uploadsFolder = () => join(directory, 'uploads', '._S3rver_uploads');
const leftOnDisk = async () => readdir(uploadsFolder()).catch(() => [] as string[]);

async function startUpload(key: string) {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'uploads', Key: key }));
  const parts = [];
  for (const [PartNumber, size] of [
    [1, 5 * MiB],
    [2, 1000],
  ] as const) {
    const { ETag } = await s3.send(
      new UploadPartCommand({ Bucket: 'uploads', Key: key, UploadId, PartNumber, Body: Buffer.alloc(size, PartNumber) }),
    );
    parts.push({ PartNumber, ETag, Size: size });
  }
  return { uploadId: UploadId!, parts };
}

async function s3Error(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name: string; $metadata: { httpStatusCode: number } } | undefined;
  return error && { name: error.name, status: error.$metadata.httpStatusCode };
}

describe('multipart calls s3rver lacks', () => {
  it('ListParts and ListMultipartUploads show an upload in progress', async () => {
    const { uploadId, parts } = await startUpload('in-progress/a.bin');
    const listed = await s3.send(new ListPartsCommand({ Bucket: 'uploads', Key: 'in-progress/a.bin', UploadId: uploadId }));
    expect(listed.Parts?.map(({ PartNumber, ETag, Size }) => ({ PartNumber, ETag, Size }))).toEqual(parts);
    expect(listed.IsTruncated).toBe(false);

    const page = await s3.send(
      new ListPartsCommand({ Bucket: 'uploads', Key: 'in-progress/a.bin', UploadId: uploadId, MaxParts: 1 }),
    );
    expect(page.Parts?.map((part) => part.PartNumber)).toEqual([1]);
    expect(page.IsTruncated).toBe(true);

    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: 'uploads', Prefix: 'in-progress/' }));
    expect(uploads.Uploads?.map((upload) => [upload.Key, upload.UploadId])).toEqual([['in-progress/a.bin', uploadId]]);
    await s3.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: 'in-progress/a.bin', UploadId: uploadId }));
  });

  it('ListParts leaves out a part cut off mid-body (its bytes on disk, no ETag yet), as S3 does', async () => {
    const key = 'cut-off/a.bin';
    const { uploadId, parts } = await startUpload(key);
    // What s3rver leaves of an UploadPart whose connection dropped mid-body: bytes, and no `.md5`.
    await writeFile(join(uploadsFolder(), uploadId, '3'), Buffer.alloc(1000, 3));
    const listed = await s3.send(new ListPartsCommand({ Bucket: 'uploads', Key: key, UploadId: uploadId }));
    expect(listed.Parts?.map(({ PartNumber, ETag, Size }) => ({ PartNumber, ETag, Size }))).toEqual(parts);
    await s3.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: key, UploadId: uploadId }));
  });

  it('AbortMultipartUpload removes the parts from disk; later calls on the upload get NoSuchUpload', async () => {
    const key = 'aborted/b.bin';
    const { uploadId } = await startUpload(key);
    expect(await leftOnDisk()).toContain(uploadId);

    const aborted = await s3.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: key, UploadId: uploadId }));
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    expect(await leftOnDisk()).not.toContain(uploadId);

    const noSuchUpload = { name: 'NoSuchUpload', status: 404 };
    expect(await s3Error(s3.send(new ListPartsCommand({ Bucket: 'uploads', Key: key, UploadId: uploadId })))).toEqual(noSuchUpload);
    expect(
      await s3Error(
        s3.send(new UploadPartCommand({ Bucket: 'uploads', Key: key, UploadId: uploadId, PartNumber: 3, Body: 'late part' })),
      ),
    ).toEqual(noSuchUpload);
    expect(
      await s3Error(
        s3.send(
          new CompleteMultipartUploadCommand({
            Bucket: 'uploads',
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"x"' }] },
          }),
        ),
      ),
    ).toEqual(noSuchUpload);
    expect(await s3Error(s3.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: key, UploadId: uploadId })))).toEqual(
      noSuchUpload,
    );
    // The late part did not bring the upload's folder back.
    expect(await leftOnDisk()).not.toContain(uploadId);
  });

  it('refuses an abort for another key, a made-up upload id, or a wrong signature', async () => {
    const { uploadId } = await startUpload('kept/c.bin');
    expect(await s3Error(s3.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: 'other.bin', UploadId: uploadId })))).toEqual({
      name: 'NoSuchUpload',
      status: 404,
    });
    expect(
      await s3Error(s3.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: 'kept/c.bin', UploadId: '../../etc' }))),
    ).toEqual({ name: 'NoSuchUpload', status: 404 });
    const stranger = new S3Client({
      ...storage.handlerSettings,
      credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: 'wrong' },
    });
    expect(
      await s3Error(stranger.send(new AbortMultipartUploadCommand({ Bucket: 'uploads', Key: 'kept/c.bin', UploadId: uploadId }))),
    ).toEqual({ name: 'SignatureDoesNotMatch', status: 403 });
    stranger.destroy();
    expect(await leftOnDisk()).toContain(uploadId);
  });

  it('completes an upload as before, leaving no parts behind', async () => {
    const key = 'completed/d.bin';
    const { uploadId, parts } = await startUpload(key);
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'uploads',
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })) },
      }),
    );
    const object = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: key }));
    expect(object.ContentLength).toBe(5 * MiB + 1000);
    await object.Body?.transformToByteArray();
    expect(await leftOnDisk()).not.toContain(uploadId);
  });
});

describe('lifecycle at start', () => {
  it('removes uploads older than abortIncompleteUploadsAfter, and folders s3rver left without their key', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'upbeam-local-s3-lifecycle-'));
    const first = await startLocalS3({ directory: folder, bucket: 'b' });
    const client = first.createClient();
    const { UploadId: kept } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'b', Key: 'kept.bin' }));
    const { UploadId: old } = await client.send(new CreateMultipartUploadCommand({ Bucket: 'b', Key: 'old.bin' }));
    await client.send(new UploadPartCommand({ Bucket: 'b', Key: 'old.bin', UploadId: old, PartNumber: 1, Body: 'x' }));
    client.destroy();
    await first.close();
    const uploads = join(folder, 'b', '._S3rver_uploads');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await utimes(join(uploads, old!, 'key'), twoDaysAgo, twoDaysAgo);
    await mkdir(join(uploads, 'f'.repeat(32)));
    await writeFile(join(uploads, 'f'.repeat(32), '1'), 'orphan part');

    const second = await startLocalS3({ directory: folder, bucket: 'b' });
    expect(await readdir(uploads)).toEqual([kept]);
    await second.close();
    await rm(folder, { recursive: true, force: true });
  });
});

describe('bucket calls as the AWS SDK signs them (/bucket/)', () => {
  it('HeadBucket and ListObjectsV2 pass the signature check; a wrong secret does not', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'listed.txt', Body: 'x' }));
    expect((await s3.send(new HeadBucketCommand({ Bucket: 'uploads' }))).$metadata.httpStatusCode).toBe(200);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'uploads', Prefix: 'listed' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual(['listed.txt']);

    const stranger = new S3Client({
      ...storage.handlerSettings,
      credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: 'wrong' },
    });
    expect(await s3Error(stranger.send(new ListObjectsV2Command({ Bucket: 'uploads' })))).toEqual({
      name: 'SignatureDoesNotMatch',
      status: 403,
    });
    stranger.destroy();
  });

  it('ListObjectsV2 in pages: each page continues where the last one stopped (s3rver alone answered 500 to a truncated page)', async () => {
    const keys = ['paged/a', 'paged/b', 'paged/c', 'paged/d', 'paged/e'];
    for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key, Body: 'x' }));
    const listed: string[] = [];
    let ContinuationToken: string | undefined;
    let pages = 0;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: 'uploads', Prefix: 'paged/', MaxKeys: 2, ContinuationToken }));
      pages += 1;
      listed.push(...(page.Contents ?? []).map((object) => object.Key!));
      expect(page.IsTruncated).toBe(pages < 3);
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken);
    expect({ pages, listed }).toEqual({ pages: 3, listed: keys });
    // A continued page is signed like any other: a wrong secret is still refused.
    const stranger = new S3Client({ ...storage.handlerSettings, credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: 'wrong' } });
    const first = await s3.send(new ListObjectsV2Command({ Bucket: 'uploads', Prefix: 'paged/', MaxKeys: 2 }));
    expect(await s3Error(stranger.send(new ListObjectsV2Command({ Bucket: 'uploads', Prefix: 'paged/', ContinuationToken: first.NextContinuationToken }))))
      .toMatchObject({ status: 403 });
    stranger.destroy();
  });
});

describe('STS stand-in over HTTP (S3_UPLOAD_STS_ENDPOINT)', () => {
  const sts = (credentials = { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey }) =>
    new STSClient({ region: storage.region, endpoint: storage.env.S3_UPLOAD_STS_ENDPOINT, credentials });

  it('GetFederationToken and AssumeRole give credentials that can PUT, valid DurationSeconds', async () => {
    const client = sts();
    const before = Date.now();
    const federated = await client.send(
      new GetFederationTokenCommand({
        Name: 'S3UploadWebToken',
        DurationSeconds: 900,
        Policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::uploads/sts/*' }] }),
      }),
    );
    const assumed = await client.send(
      new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::123456789012:role/uploads', RoleSessionName: 'upload', DurationSeconds: 1800 }),
    );
    client.destroy();
    const expiresIn = (c: { Expiration?: Date }) => Math.round((c.Expiration!.getTime() - before) / 1000);
    expect(expiresIn(federated.Credentials!)).toBeGreaterThanOrEqual(899);
    expect(expiresIn(federated.Credentials!)).toBeLessThanOrEqual(901);
    expect(expiresIn(assumed.Credentials!)).toBeGreaterThanOrEqual(1799);

    for (const [name, c] of [
      ['federated', federated.Credentials!],
      ['assumed', assumed.Credentials!],
    ] as const) {
      const client = new S3Client({
        ...storage.handlerSettings,
        credentials: { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! },
      });
      const put = await client.send(new PutObjectCommand({ Bucket: 'uploads', Key: `sts/${name}.txt`, Body: name }));
      expect(put.$metadata.httpStatusCode).toBe(200);
      client.destroy();
    }
  });

  it('refuses a wrong signature, temporary credentials and an out-of-range DurationSeconds', async () => {
    const wrong = sts({ accessKeyId: storage.accessKeyId, secretAccessKey: 'wrong' });
    expect(await s3Error(wrong.send(new GetFederationTokenCommand({ Name: 'x1' })))).toEqual({
      name: 'SignatureDoesNotMatch',
      status: 403,
    });
    wrong.destroy();

    const client = sts();
    const { Credentials: c } = await client.send(new GetFederationTokenCommand({ Name: 'x1' }));
    expect(await s3Error(client.send(new GetFederationTokenCommand({ Name: 'x1', DurationSeconds: 60 })))).toEqual({
      name: 'ValidationError',
      status: 400,
    });
    client.destroy();
    const temporary = sts({ accessKeyId: c!.AccessKeyId!, secretAccessKey: c!.SecretAccessKey! });
    expect(await s3Error(temporary.send(new GetFederationTokenCommand({ Name: 'x1' })))).toEqual({
      name: 'AccessDenied',
      status: 403,
    });
    temporary.destroy();
  });
});

describe('command line', () => {
  const cli = join(import.meta.dirname, '..', 'dist', 'cli.js');

  function run(args: string[]) {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exit, output: () => ({ stdout, stderr }) };
  }

  it('prints the env lines, serves, and stops cleanly on SIGINT', async () => {
    const started = run(['--port', '0', '--bucket', 'cli-bucket', '--origin', 'http://localhost:3000']);
    await expect.poll(() => started.output().stdout, { timeout: 10_000 }).toContain('Ctrl-C');
    const env = Object.fromEntries(
      started
        .output()
        .stdout.split('\n')
        .filter((line) => line.startsWith('S3_UPLOAD_'))
        .map((line) => line.split('=') as [string, string]),
    );
    expect(Object.keys(env)).toEqual([
      'S3_UPLOAD_KEY',
      'S3_UPLOAD_SECRET',
      'S3_UPLOAD_BUCKET',
      'S3_UPLOAD_REGION',
      'S3_UPLOAD_ENDPOINT',
      'S3_UPLOAD_FORCE_PATH_STYLE',
      'S3_UPLOAD_STS_ENDPOINT',
    ]);
    expect(env.S3_UPLOAD_BUCKET).toBe('cli-bucket');
    const client = new S3Client({
      region: env.S3_UPLOAD_REGION,
      endpoint: env.S3_UPLOAD_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: env.S3_UPLOAD_KEY!, secretAccessKey: env.S3_UPLOAD_SECRET! },
    });
    await client.send(new PutObjectCommand({ Bucket: 'cli-bucket', Key: 'hello.txt', Body: 'hello' }));
    client.destroy();

    started.child.kill('SIGINT');
    expect(await started.exit).toBe(0);
    expect(started.output().stderr).toBe('');
  });

  it('says in one line which port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const started = run(['--port', String(port)]);
    expect(await started.exit).toBe(2);
    expect(started.output().stderr).toBe(`local-s3: port ${port} on 127.0.0.1 is taken: choose another with --port\n`);
    blocker.close();
  });
});
