import { describe, expect, it } from 'vitest';
import { createUploadHandler } from './handler';
import { readMarker } from './upload-marker';

// next-s3-upload's unchanged client marks its body `_nextS3` (next-s3-upload 0.3, src/hooks/use-uploader.ts).

// No storage at the endpoints below: the check of unsigned headers runs in the integration suites.
const settings = { accessKeyId: 'AKID', secretAccessKey: 'SECRET', bucket: 'my-bucket', region: 'eu-west-1', checkUnsignedHeaders: false };

function post(body: unknown): Request {
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('readMarker: next-s3-upload marker', () => {
  it('maps "presigned" to presigned and "aws-sdk" to temporary-token', () => {
    expect(readMarker({ _nextS3: { strategy: 'presigned' } })).toEqual({ strategy: 'presigned' });
    expect(readMarker({ _nextS3: { strategy: 'aws-sdk' } })).toEqual({ strategy: 'temporary-token' });
  });

  it.each([
    ['an unknown strategy', { _nextS3: { strategy: 'temporary-token' } }, '"_nextS3.strategy" must be one of: "presigned", "aws-sdk".'],
    ['an inherited name', { _nextS3: { strategy: 'toString' } }, '"_nextS3.strategy" must be one of: "presigned", "aws-sdk".'],
    ['no strategy', { _nextS3: {} }, '"_nextS3.strategy" must be one of: "presigned", "aws-sdk".'],
    ['a marker that is not an object', { _nextS3: 'presigned' }, '"_nextS3.strategy" must be one of: "presigned", "aws-sdk".'],
    [
      'both markers',
      { _upload: { strategy: 'presigned' }, _nextS3: { strategy: 'presigned' } },
      'Send one marker, "_upload" or "_nextS3" (next-s3-upload\'s client), not both.',
    ],
  ])('refuses %s with 400 INVALID_REQUEST', (_, body, message) => {
    expect(() => readMarker(body)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', message }));
  });

  it('reads only an own "_nextS3" (not one inherited through __proto__)', () => {
    const body = JSON.parse('{"__proto__": {"_nextS3": {"strategy": "presigned"}}}') as Record<string, unknown>;
    expect(() => readMarker(body)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', message: expect.stringContaining('"_upload.strategy"') }));
  });
});

describe('createUploadHandler: next-s3-upload request', () => {
  it('answers its presigned request with the fields its client reads: url, key, bucket, region (and endpoint)', async () => {
    const handler = createUploadHandler({ ...settings, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, objectAcl: 'none' });
    const response = await handler(post({ filename: 'cat photo.png', filetype: 'image/png', _nextS3: { strategy: 'presigned' } }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ bucket: 'my-bucket', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9000' });
    expect(body.key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/cat-photo\.png$/);
    // The two headers next-s3-upload's PUT sends, and only them, are signed.
    expect(body.headers).toEqual({ 'Content-Type': 'image/png', 'Cache-Control': 'max-age=630720000' });
    expect(new URL(body.url).searchParams.get('X-Amz-SignedHeaders')).toBe('cache-control;content-type;host');
  });

  it.each(['private', 'bucket-owner-full-control'] as const)(
    'refuses (400) its presigned request when the handler signs an ACL (objectAcl %s) its PUT cannot send: the marker never weakens the policy',
    async (objectAcl) => {
      const handler = createUploadHandler({ ...settings, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, objectAcl });
      const response = await handler(post({ filename: 'a.png', filetype: 'image/png', _nextS3: { strategy: 'presigned' } }));
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.code).toBe('INVALID_REQUEST');
      expect(body.error).toContain(`next-s3-upload's client cannot send the x-amz-acl header this endpoint signs (objectAcl "${objectAcl}")`);
      // Upbeam's own marker on the same handler signs the ACL as before.
      const ours = await handler(post({ filename: 'a.png', filetype: 'image/png', _upload: { strategy: 'presigned' } }));
      expect((await ours.json()).headers['x-amz-acl']).toBe(objectAcl);
    },
  );

  it('answers 400 with the reason when a size limit needs the "filesize" its client does not send', async () => {
    const handler = createUploadHandler({ ...settings, maxFileSize: 1024 });
    const response = await handler(post({ filename: 'a.png', filetype: 'image/png', _nextS3: { strategy: 'presigned' } }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: '"filesize" (bytes) is required: this endpoint limits the file size.', code: 'INVALID_REQUEST' });
  });
});
