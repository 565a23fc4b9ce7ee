import { GetObjectCommand, HeadBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createObjectAccess, isKeyUnder, type ObjectAccess } from '../src/index';

// Object access with a key the browser named, as the example's `/api/object-url` passed it on: a guard
// `key.startsWith('next-s3-uploads/')` lets `next-s3-uploads/../private/secret.txt` through. On a server that
// resolves paths (local-s3 before it refused them) that read and deleted objects outside the prefix, and in
// other buckets; radosgw keeps `..` literally. createObjectAccess refuses such keys (the upload handler's
// rules) before signing or sending anything, on both; isKeyUnder tells the app whether a key is the user's.

const connection = inject('radosgw');
const SECRET = 'private bytes';

interface Storage {
  settings: { accessKeyId: string; secretAccessKey: string; bucket: string; region: string; endpoint: string; forcePathStyle: true };
  admin: S3Client;
  close(): Promise<void>;
}

const storages: [string, () => Promise<Storage>][] = [
  [
    'local-s3',
    async () => {
      const local = await startLocalS3({ bucket: 'uploads' });
      const admin = local.createClient();
      return { settings: local.handlerSettings, admin, close: async () => (admin.destroy(), await local.close()) };
    },
  ],
];
if (connection) {
  storages.push([
    'radosgw',
    async () => {
      const bucket = await createTestBucket(connection, 'keys');
      const admin = bucket.createClient();
      return { settings: bucket.handlerSettings, admin, close: async () => admin.destroy() };
    },
  ]);
}

describe.each(storages)('createObjectAccess refuses keys the upload handler would refuse, on %s', (name, open) => {
  let storage: Storage;
  let objects: ObjectAccess;
  const read = async (key: string) => {
    const answer = await storage.admin.send(new GetObjectCommand({ Bucket: storage.settings.bucket, Key: key }));
    return answer.Body!.transformToString();
  };

  beforeAll(async () => {
    storage = await open();
    objects = createObjectAccess(storage.settings);
    await storage.admin.send(new PutObjectCommand({ Bucket: storage.settings.bucket, Key: 'private/secret.txt', Body: SECRET }));
    await storage.admin.send(new PutObjectCommand({ Bucket: storage.settings.bucket, Key: 'next-s3-uploads/u1/a/photo.png', Body: 'photo' }));
  });
  afterAll(async () => storage?.close());

  it('signs no URL for "next-s3-uploads/../private/secret.txt" (the guard startsWith let it through)', async () => {
    const key = 'next-s3-uploads/../private/secret.txt';
    expect(key.startsWith('next-s3-uploads/')).toBe(true);
    expect(isKeyUnder(key, 'next-s3-uploads/')).toBe(false);
    const signed = objects.signedGetUrl(key, { expiresIn: 60 });
    // Before: a URL, which on local-s3 read the secret beyond the prefix.
    const url = await signed.catch(() => undefined);
    if (url) expect(await (await fetch(url)).text()).not.toBe(SECRET);
    await expect(signed).rejects.toMatchObject({ name: 'UploadError', code: 'INVALID_REQUEST', message: expect.stringContaining('".." segment') });
  });

  it('deletes nothing through a ".." key: the object beyond the prefix and the bucket stay', async () => {
    await expect(objects.deleteObject('next-s3-uploads/../private/secret.txt')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(objects.deleteObject('next-s3-uploads/u1/a/../../../private/secret.txt')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await read('private/secret.txt')).toBe(SECRET);
    await expect(storage.admin.send(new HeadBucketCommand({ Bucket: storage.settings.bucket }))).resolves.toBeTruthy();
  });

  it.each([
    ['a "." segment', 'next-s3-uploads/./private/secret.txt'],
    ['an empty segment', 'next-s3-uploads//x'],
    ['a leading "/"', '/private/secret.txt'],
    ['a backslash', 'next-s3-uploads\\..\\private\\secret.txt'],
    ['a control character', 'next-s3-uploads/a\u0000b'],
    ['over 1024 bytes', `next-s3-uploads/${'a'.repeat(1020)}`],
    ["the handler's own objects", '.upbeam/completions/x.json'],
    ['an empty key', ''],
  ])('refuses %s (INVALID_REQUEST, nothing signed or sent)', async (_what, key) => {
    await expect(objects.signedGetUrl(key)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(objects.deleteObject(key)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it.runIf(name === 'radosgw')('radosgw keeps a ".." key as a literal name, not a path', async () => {
    const key = 'next-s3-uploads/../literal.txt';
    await storage.admin.send(new PutObjectCommand({ Bucket: storage.settings.bucket, Key: key, Body: 'literal' }));
    expect(await read(key)).toBe('literal');
    await expect(read('literal.txt')).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });

  it("a user's own key still opens, and isKeyUnder tells another user's key from it", async () => {
    const key = 'next-s3-uploads/u1/a/photo.png';
    expect(isKeyUnder(key, 'next-s3-uploads/u1/')).toBe(true);
    expect(isKeyUnder(key, 'next-s3-uploads/u2/')).toBe(false);
    expect(await (await fetch(await objects.signedGetUrl(key, { expiresIn: 60 }))).text()).toBe('photo');
    await objects.deleteObject(key);
    await expect(read(key)).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });
});
