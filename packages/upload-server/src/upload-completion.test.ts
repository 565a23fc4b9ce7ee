import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUploadHandler } from './handler';
import { checkStoredObject } from './upload-policy';

// What a completion costs on the wire, and the checks made on a stored object. The completion against
// storage (HEAD, marker, hook once) is tested on s3rver and radosgw in test/upload-completion.test.ts.

const settings = { accessKeyId: 'AKID', secretAccessKey: 'SECRET', bucket: 'my-bucket', region: 'eu-west-1' };

const prepare = (config: Parameters<typeof createUploadHandler>[0]) =>
  createUploadHandler({ ...settings, ...config })(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'a.png', filetype: 'image/png', filesize: 10, _upload: { strategy: 'presigned' } }),
    }),
  ).then((response) => response.json());

describe('receipt on the presigned answer', () => {
  // With the hook, a preparation writes the upload's record: that one stores on a real local-s3.
  let storage: LocalS3;
  beforeAll(async () => {
    storage = await startLocalS3();
  });
  afterAll(() => storage?.close());

  it('only with onUploadComplete: apps without the hook get no receipt and report nothing', async () => {
    expect(await prepare({})).not.toHaveProperty('receipt');
    expect(await prepare({ maxFileSize: 100, allowedContentTypes: ['image/*'] })).not.toHaveProperty('receipt');
    expect((await prepare({ ...storage.handlerSettings, onUploadComplete: () => {} })).receipt).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
  });
});

describe('checkStoredObject', () => {
  const policy = { maxFileSize: 100, allowedContentTypes: ['image/*'] };

  it('allows an object within the size and of an allowed type (parameters and case ignored)', () => {
    expect(checkStoredObject(policy, { size: 100, contentType: 'Image/PNG; x=1' })).toBeUndefined();
    expect(checkStoredObject({}, { size: 10 ** 12, contentType: 'text/html' })).toBeUndefined();
  });

  it('refuses a larger object with 413 and another type with 415, in our own words', () => {
    expect(checkStoredObject(policy, { size: 101, contentType: 'image/png' })).toMatchObject({
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: 'File is 101 bytes; the largest accepted is 100 bytes. It was deleted.',
    });
    expect(checkStoredObject(policy, { size: 1, contentType: 'text/html' })).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it.each(['image/png;x=1,text/html', 'image/png; a="b",image/svg+xml', 'image/png, text/html'])(
    'refuses a stored type that is not one media type (%j) with 415, whatever the rules',
    (contentType) => {
      for (const rules of [policy, {}]) {
        expect(checkStoredObject(rules, { size: 1, contentType })).toMatchObject({
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Stored file has a content type that is not one media type (RFC 9110). It was deleted.',
        });
      }
    },
  );
});
