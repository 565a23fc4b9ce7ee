import { request } from 'node:http';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../src/index';

// Keys are names, never paths: s3rver keeps `{bucket}/{key}` as a file path, so a `..` segment (raw,
// `%2e%2e`, or an encoded slash) reached files of another bucket, or outside the server's folder, and
// deleting an object under an empty segment removed its bucket. Each request is sent as an attacker would:
// raw over node:http (no client to normalise the path), unsigned (s3rver lets a request without
// `Authorization` through) and signed through the AWS SDK. None may read, write or delete outside its bucket.

let storage: LocalS3;
let base: string;
let directory: string;
let s3: S3Client;
const SECRET = 'the other bucket secret';
const OUTSIDE = 'a file beside the server folder';

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'upbeam-local-s3-keys-'));
  directory = join(base, 'data');
  storage = await startLocalS3({ directory, bucket: 'uploads' });
  s3 = storage.createClient();
  await s3.send(new CreateBucketCommand({ Bucket: 'other' }));
});
afterAll(async () => {
  s3?.destroy();
  await storage?.close();
  await rm(base, { recursive: true, force: true });
});
beforeEach(async () => {
  await s3.send(new PutObjectCommand({ Bucket: 'other', Key: 'secret.txt', Body: SECRET }));
  await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'private/secret.txt', Body: SECRET }));
  // Named as s3rver names an object's file: `GET /{bucket}/x` with the bucket `..` would read it.
  await writeFile(join(base, 'x._S3rver_object'), OUTSIDE);
});

/** One request as sent, the path untouched. */
function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
  const { port } = new URL(storage.endpoint);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path, headers: options.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

const otherSecret = () => readFile(join(directory, 'other', 'secret.txt._S3rver_object'), 'utf8');
const bucketExists = (bucket: string) =>
  s3.send(new HeadBucketCommand({ Bucket: bucket })).then(
    () => true,
    () => false,
  );

describe('local-s3: a key with ".." or "." segments never names a path outside its bucket', () => {
  it.each([
    '/uploads/next-s3-uploads/../../other/secret.txt',
    '/uploads/../other/secret.txt',
    '/uploads/next-s3-uploads/%2e%2e/%2E%2E/other/secret.txt',
    '/uploads/..%2Fother%2Fsecret.txt',
    '/uploads/.%2F..%2F..%2Fother/secret.txt',
  ])('GET %s reads nothing of another bucket (400)', async (path) => {
    const answer = await raw('GET', path);
    expect(answer.body).not.toContain(SECRET);
    expect(answer.status).toBe(400);
  });

  it('GET of a bucket named ".." (raw, encoded) reads nothing beside the server folder', async () => {
    for (const path of ['/%2e%2e/x', '/%2E%2E/data/other/secret.txt', '/..%2Fdata%2Fother/secret.txt']) {
      const answer = await raw('GET', path);
      expect(answer.body, path).not.toContain(OUTSIDE);
      expect(answer.body, path).not.toContain(SECRET);
      expect(answer.status, path).toBe(400);
    }
  });

  it('DELETE through ".." removes nothing of another bucket, nor the bucket', async () => {
    for (const path of ['/uploads/../other/secret.txt', '/uploads/x/%2e%2e/..%2Fother/secret.txt']) {
      expect((await raw('DELETE', path)).status, path).toBe(400);
    }
    expect(await otherSecret()).toBe(SECRET);
    expect(await bucketExists('other')).toBe(true);
  });

  it('DELETE of the bucket ".." removes nothing beside the server folder', async () => {
    const spare = join(base, 'spare');
    await mkdir(spare, { recursive: true });
    expect((await raw('DELETE', '/%2e%2e')).status).toBe(400);
    expect((await raw('DELETE', '/%2e%2e/data/other/secret.txt')).status).toBe(400);
    await expect(stat(spare)).resolves.toBeTruthy();
    expect(await readFile(join(base, 'x._S3rver_object'), 'utf8')).toBe(OUTSIDE);
    expect(await otherSecret()).toBe(SECRET);
  });

  it('PUT through ".." writes nothing into another bucket', async () => {
    for (const path of ['/uploads/../other/planted.txt', '/uploads/a/%2e%2e/%2e%2e/other/planted.txt']) {
      expect((await raw('PUT', path, { body: 'planted', headers: { 'content-length': '7' } })).status, path).toBe(400);
    }
    expect(await readdir(join(directory, 'other'))).not.toContain('planted.txt._S3rver_object');
  });

  it('an empty segment is refused: deleting the last object under a leading "/" kept its bucket', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'lonely' }));
    expect((await raw('PUT', '/lonely//x', { body: 'x', headers: { 'content-length': '1' } })).status).toBe(400);
    expect((await raw('DELETE', '/lonely//x')).status).toBe(400);
    expect((await raw('PUT', '/lonely/a//b', { body: 'x', headers: { 'content-length': '1' } })).status).toBe(400);
    expect(await bucketExists('lonely')).toBe(true);
  });

  it('a copy source through ".." copies nothing of another bucket', async () => {
    for (const source of ['/uploads/../other/secret.txt', 'uploads/%2e%2e/other/secret.txt', '/%2e%2e/data/other/secret.txt']) {
      const answer = await raw('PUT', '/uploads/copied.txt', { headers: { 'x-amz-copy-source': source, 'content-length': '0' } });
      expect(answer.status, source).toBe(400);
    }
    await expect(s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'copied.txt' }))).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('a form POST naming a ".." key writes nothing into another bucket', async () => {
    const boundary = 'upbeamboundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="key"',
      '',
      '../other/planted.txt',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'planted',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const answer = await raw('POST', '/uploads', {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(Buffer.byteLength(body)) },
    });
    expect(answer.status).toBe(400);
    expect(await readdir(join(directory, 'other'))).not.toContain('planted.txt._S3rver_object');
  });

  it('the AWS SDK, signed: GetObject, DeleteObject, DeleteObjects and CopyObject through ".." are refused', async () => {
    const key = 'next-s3-uploads/../../other/secret.txt';
    await expect(s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    await expect(s3.send(new DeleteObjectCommand({ Bucket: 'uploads', Key: key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    await expect(s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: '../other/planted.txt', Body: 'x' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      s3.send(new DeleteObjectsCommand({ Bucket: 'uploads', Delete: { Objects: [{ Key: '../other/secret.txt' }, { Key: 'private/../../other/secret.txt' }] } })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    await expect(
      s3.send(new CopyObjectCommand({ Bucket: 'uploads', Key: 'copied.txt', CopySource: 'uploads/../other/secret.txt' })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
    expect(await otherSecret()).toBe(SECRET);
    expect(await bucketExists('other')).toBe(true);
  });

  it('keys S3 stores as names still work: dots inside a segment, a backslash, "%2F" kept as a name', async () => {
    for (const key of ['a/..b/c..', 'a/.hidden/x', 'a\\..\\..\\other\\secret.txt', 'private/secret.txt']) {
      await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: `value of ${key}` }));
      const read = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: key }));
      expect(await read.Body!.transformToString(), key).toBe(`value of ${key}`);
    }
    expect(await otherSecret()).toBe(SECRET);
  });

  it('a key over 1024 bytes is refused with KeyTooLongError, as S3 does', async () => {
    const answer = await raw('PUT', `/uploads/${'a'.repeat(1025)}`, { body: 'x', headers: { 'content-length': '1' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<Code>KeyTooLongError</Code>');
  });
});
