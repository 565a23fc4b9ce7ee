import { setTimeout as sleep } from 'node:timers/promises';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket, type RadosgwBucket } from '@upbeam/ceph-rgw';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createObjectAccess } from '../src/index';

// After the upload, on a private bucket of Ceph radosgw: the signed GET URL opens the object (which an
// unsigned GET cannot), with the asked Content-Disposition; it expires; delete removes the object.

const connection = inject('radosgw');

describe.skipIf(!connection)('createObjectAccess on radosgw (private bucket)', () => {
  let storage: RadosgwBucket;
  let admin: S3Client;
  const key = 'uploads/private-photo.png';

  beforeAll(async () => {
    storage = await createTestBucket(connection!, 'access');
    admin = storage.createClient();
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: 'private bytes', ContentType: 'image/png', ACL: 'private' }));
  });
  afterAll(() => admin?.destroy());

  it('a signed GET URL opens a private object an unsigned GET cannot, with the asked Content-Disposition', async () => {
    const objects = createObjectAccess(storage.handlerSettings);
    const unsigned = `${connection!.endpoint}/${storage.bucket}/${key}`;
    expect((await fetch(unsigned)).status).toBe(403);
    const url = await objects.signedGetUrl(key, { expiresIn: 60, contentDisposition: 'attachment; filename="photo.png"' });
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('private bytes');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="photo.png"');
  });

  it('expires after its lifetime (403)', async () => {
    const url = await createObjectAccess(storage.handlerSettings).signedGetUrl(key, { expiresIn: 1 });
    expect((await fetch(url)).status).toBe(200);
    await sleep(2500);
    expect((await fetch(url)).status).toBe(403);
  });

  it('deleteObject removes the object; a second delete of the missing key succeeds', async () => {
    const objects = createObjectAccess(storage.handlerSettings);
    await objects.deleteObject(key);
    await expect(admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    await expect(objects.deleteObject(key)).resolves.toBeUndefined();
  });

  it('refuses an empty key and a lifetime outside 1..604800 s', async () => {
    const objects = createObjectAccess(storage.handlerSettings);
    await expect(objects.signedGetUrl('')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(objects.signedGetUrl(key, { expiresIn: 604801 })).rejects.toThrow(/from 1 to 604800/);
  });
});
