import { describe, expect, it, vi } from 'vitest';
import { createUploadHandler } from './handler';
import { MAX_BODY_BYTES, MAX_COMPLETE_BODY_BYTES } from './request-body';

/** AWS S3's settings, with its defaults (`aws` preset: a CRC64NVME checksum, If-None-Match). */
const aws = {
  accessKeyId: 'AKID',
  secretAccessKey: 'SECRET',
  bucket: 'my-bucket',
  region: 'eu-west-1',
};

/** The same without a checksum or conditional writes: what the tests of other rules sign. */
const settings = { ...aws, checksum: false as const, conditionalWrites: false };

/** A CRC-64/NVME of 8 bytes, in base64. */
const CRC64 = 'rosUhgp5mIg=';

function post(body: unknown, init: RequestInit = {}): Request {
  return new Request('http://127.0.0.1/api/s3-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

const presignedBody = { filename: 'cat photo.png', filetype: 'image/png', _upload: { strategy: 'presigned' } };

describe('createUploadHandler: presigned answer', () => {
  it('on AWS S3 asks for the CRC64NVME first (400 CHECKSUM_REQUIRED), then signs it and If-None-Match into the URL', async () => {
    const required = await createUploadHandler(aws)(post(presignedBody));
    expect(required.status).toBe(400);
    expect(await required.json()).toEqual({
      code: 'CHECKSUM_REQUIRED',
      checksum: 'crc64nvme',
      error: "This route needs the file's CRC64NVME checksum with the request (it is signed into the upload URL): hash the file and prepare again.",
    });
    const checksum = { algorithm: 'crc64nvme', value: CRC64 };
    const body = await (await createUploadHandler(aws)(post({ ...presignedBody, _upload: { strategy: 'presigned', checksum } }))).json();
    expect(body).toMatchObject({ checksum: 'crc64nvme', ifNoneMatch: true });
    expect(body.headers).toMatchObject({ 'x-amz-checksum-crc64nvme': CRC64, 'If-None-Match': '*' });
    const url = new URL(body.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('cache-control;content-type;host;if-none-match;x-amz-acl;x-amz-checksum-crc64nvme;x-amz-tagging');
    // A header, not a query parameter: storage checks the body against the header it gets.
    expect(url.searchParams.has('x-amz-checksum-crc64nvme')).toBe(false);
  });

  it('answers { key, bucket, region, url, headers } with a URL signed for PUT of the key, valid 3600 s', async () => {
    const response = await createUploadHandler(settings)(post(presignedBody));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['bucket', 'headers', 'key', 'region', 'url']);
    expect(body.headers).toEqual({ 'Content-Type': 'image/png', 'Cache-Control': 'max-age=630720000', 'x-amz-acl': 'bucket-owner-full-control', 'x-amz-tagging': '' });
    expect(body).toMatchObject({ bucket: 'my-bucket', region: 'eu-west-1' });
    expect(body.key).toMatch(/^next-s3-uploads\/[A-Za-z0-9_-]{21}\/cat-photo\.png$/);
    const url = new URL(body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`https://my-bucket.s3.eu-west-1.amazonaws.com/${body.key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('cache-control;content-type;host;x-amz-acl;x-amz-tagging');
    expect(url.searchParams.has('x-amz-acl')).toBe(false);
    expect(url.searchParams.has('x-amz-checksum-crc32')).toBe(false);
  });

  it('includes the endpoint, path style, when one is configured', async () => {
    // No storage there: the check of unsigned headers (integration suites) is skipped.
    const handler = createUploadHandler({ ...aws, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, checkUnsignedHeaders: false });
    const body = await (await handler(post(presignedBody))).json();
    expect(body.endpoint).toBe('http://127.0.0.1:9000');
    expect(body.url.startsWith(`http://127.0.0.1:9000/my-bucket/${body.key}?`)).toBe(true);
    // Unknown storage behind a custom endpoint: no checksum asked for.
    expect(body).not.toHaveProperty('checksum');
  });

  it('asks for checksum: md5 as the provider preset says (ceph), and not when the setting is off', async () => {
    const ceph = { ...aws, provider: 'ceph', endpoint: 'http://127.0.0.1:7480', checkUnsignedHeaders: false } as const;
    expect((await (await createUploadHandler(ceph)(post(presignedBody))).json()).checksum).toBe('md5');
    const md5 = { algorithm: 'md5', value: '1B2M2Y8AsgTpgAmY7PhCfg==' };
    const signed = await (await createUploadHandler(ceph)(post({ ...presignedBody, _upload: { strategy: 'presigned', checksum: md5 } }))).json();
    expect(signed.headers).toMatchObject({ 'Content-MD5': md5.value });
    expect(new URL(signed.url).searchParams.get('X-Amz-SignedHeaders')).toContain('content-md5');
    const off = await (await createUploadHandler({ ...ceph, checksum: false })(post(presignedBody))).json();
    expect(off).not.toHaveProperty('checksum');
  });

  it('lets a key function choose the key from the body, extra fields and the request', async () => {
    const key = vi.fn((body: { filename: string; folder?: unknown }, request: Request) =>
      Promise.resolve(`${String(body.folder)}/${request.headers.get('x-user')}/${body.filename}`),
    );
    const handler = createUploadHandler({ ...settings, key, keyPrefix: 'avatars' });
    const body = await (
      await handler(post({ ...presignedBody, folder: 'avatars' }, { headers: { 'content-type': 'application/json', 'x-user': 'u1' } }))
    ).json();
    expect(body.key).toBe('avatars/u1/cat photo.png');
    expect(key.mock.calls[0]![0]).toMatchObject({ filename: 'cat photo.png', folder: 'avatars' });
  });
});

describe('createUploadHandler: errors', () => {
  const handler = createUploadHandler(settings);

  it.each([
    ['GET', new Request('http://127.0.0.1/api/s3-upload'), 405, 'METHOD_NOT_ALLOWED'],
    ['text/plain body', post(presignedBody, { headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['malformed JSON', post('{"filename":'), 400, 'INVALID_JSON'],
    ['an array', post([1]), 400, 'INVALID_REQUEST'],
    ['no filename', post({ ...presignedBody, filename: undefined }), 400, 'INVALID_REQUEST'],
    ['empty filetype', post({ ...presignedBody, filetype: ' ' }), 400, 'INVALID_REQUEST'],
    ['unknown strategy', post({ ...presignedBody, _upload: { strategy: 'ftp' } }), 400, 'INVALID_REQUEST'],
    ['no strategy', post({ filename: 'a', filetype: 'b' }), 400, 'INVALID_REQUEST'],
    ['body over 16 KiB', post({ ...presignedBody, pad: 'x'.repeat(MAX_BODY_BYTES) }), 413, 'PAYLOAD_TOO_LARGE'],
    ['multipart abort over 16 KiB', post({ ...presignedBody, pad: 'x'.repeat(MAX_BODY_BYTES), _upload: { strategy: 'presigned', multipart: { action: 'abort', ticket: 'x' } } }), 413, 'PAYLOAD_TOO_LARGE'],
    // A complete may be larger (10000 parts), only with a ticket this handler issued: a forged one is refused at 16 KiB.
    ['multipart complete over 16 KiB, forged ticket', post({ ...presignedBody, _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket: 'eyJ9.x', parts: Array.from({ length: 500 }, (_, i) => ({ partNumber: i + 1, etag: `"${'0'.repeat(32)}"` })) } } }), 413, 'PAYLOAD_TOO_LARGE'],
    ['multipart complete over 1 MiB', post({ ...presignedBody, pad: 'x'.repeat(MAX_COMPLETE_BODY_BYTES), _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket: 'x', parts: [] } } }), 413, 'PAYLOAD_TOO_LARGE'],
  ])('%s -> %i %s with a message', async (_, request, status, code) => {
    const response = await handler(request);
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.code).toBe(code);
    expect(typeof body.error).toBe('string');
    expect(body.error.length).toBeGreaterThan(5);
  });

  it('answers 405 with Allow: POST', async () => {
    const response = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'PUT' }));
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers missing settings with the 500 of SPEC 7.1 and logs the missing env names', async () => {
    const onError = vi.fn();
    const saved = { ...process.env };
    try {
      for (const name of ['S3_UPLOAD_KEY', 'S3_UPLOAD_SECRET', 'S3_UPLOAD_BUCKET', 'S3_UPLOAD_REGION']) delete process.env[name];
      const response = await createUploadHandler({ bucket: 'b', onError })(post(presignedBody));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: 'Internal Server Error' });
      expect(String(onError.mock.calls[0]![0])).toContain('Missing ENVs S3_UPLOAD_KEY, S3_UPLOAD_SECRET, S3_UPLOAD_REGION');
    } finally {
      process.env = saved;
    }
  });

  it('answers a failing key function with the 500 of SPEC 7.1, logs the cause and never sends its text', async () => {
    const onError = vi.fn();
    const cause = new Error('arn:aws:iam::123456789012:user/secret-name is not authorized');
    const response = await createUploadHandler({
      ...settings,
      onError,
      key: () => {
        throw cause;
      },
    })(post(presignedBody));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'Internal Server Error' });
    expect(text).not.toContain('arn:');
    expect(onError).toHaveBeenCalledWith(cause);
  });
});

describe('createUploadHandler: onBeforeUpload and policy', () => {
  it('refuses with the app\'s 401 / 403 message', async () => {
    const { UploadError } = await import('./errors');
    const handler = createUploadHandler({
      ...settings,
      onBeforeUpload: ({ request }) => {
        if (!request.headers.get('authorization')) throw new UploadError('UNAUTHORIZED', 'Sign in to upload.');
        throw new UploadError('FORBIDDEN', 'Your plan does not include uploads.');
      },
    });
    const anonymous = await handler(post(presignedBody));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'Sign in to upload.', code: 'UNAUTHORIZED' });
    const signedIn = await handler(post(presignedBody, { headers: { 'content-type': 'application/json', authorization: 'Bearer x' } }));
    expect(signedIn.status).toBe(403);
    expect(await signedIn.json()).toEqual({ error: 'Your plan does not include uploads.', code: 'FORBIDDEN' });
  });

  it('sets key, metadata and content disposition; the disposition becomes a signed header', async () => {
    const handler = createUploadHandler({
      ...settings,
      keyPrefix: 'users/',
      onBeforeUpload: () => ({ key: 'users/42/avatar.png', metadata: { 'user-id': '42' }, contentDisposition: 'inline' }),
    });
    const body = await (await handler(post(presignedBody))).json();
    expect(body.key).toBe('users/42/avatar.png');
    expect(body.headers['Content-Disposition']).toBe('inline');
    const url = new URL(body.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('cache-control;content-disposition;content-type;host;x-amz-acl;x-amz-tagging');
    expect(url.searchParams.get('x-amz-meta-user-id')).toBe('42');
  });

  it('answers a key outside the prefix with the 500 of SPEC 7.1 and logs why', async () => {
    const onError = vi.fn();
    const handler = createUploadHandler({ ...settings, onError, key: () => '../../etc/passwd' });
    const response = await handler(post(presignedBody));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal Server Error' });
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'INVALID_OBJECT_KEY' });
  });

  it('signs the declared size as Content-Length when maxFileSize is set, and refuses larger files (413)', async () => {
    const handler = createUploadHandler({ ...settings, maxFileSize: 1024 });
    const ok = await (await handler(post({ ...presignedBody, filesize: 1000 }))).json();
    expect(new URL(ok.url).searchParams.get('X-Amz-SignedHeaders')).toBe('cache-control;content-length;content-type;host;x-amz-acl;x-amz-tagging');
    const tooLarge = await handler(post({ ...presignedBody, filesize: 1025 }));
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).code).toBe('FILE_TOO_LARGE');
    const undeclared = await handler(post(presignedBody));
    expect(undeclared.status).toBe(400);
  });

  it('stores HTML and SVG as attachments by default', async () => {
    const handler = createUploadHandler(settings);
    const body = await (await handler(post({ ...presignedBody, filetype: 'image/svg+xml' }))).json();
    expect(body.headers['Content-Disposition']).toBe('attachment');
  });

  it('refuses a type outside allowedContentTypes with 400 FILE_TYPE_NOT_ALLOWED', async () => {
    const response = await createUploadHandler({ ...settings, allowedContentTypes: ['image/*'] })(
      post({ ...presignedBody, filetype: 'text/html' }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'Files of type "text/html" are not allowed; allowed: image/*.',
      code: 'FILE_TYPE_NOT_ALLOWED',
    });
  });
});

describe('createUploadHandler: settings checks (SPEC 5)', () => {
  it.each([
    [{ bucket: 'my/bucket' }, "must not contain '/'"],
    [{ sseCustomerKey: new Uint8Array(16) }, 'must be 32 bytes'],
    [{ sseCustomerKey: btoa('x'.repeat(31)) }, 'must be 32 bytes'],
    [{ sseCustomerKey: '%%%' }, 'must be base64'],
  ])('%j is a logged 500', async (override, message) => {
    const onError = vi.fn();
    const response = await createUploadHandler({ ...settings, ...override, onError })(post(presignedBody));
    expect(response.status).toBe(500);
    expect(String(onError.mock.calls[0]![0])).toContain(message);
  });

  it('accepts an access-point ARN as the bucket', async () => {
    const response = await createUploadHandler({
      ...settings,
      bucket: 'arn:aws:s3:eu-west-1:123456789012:accesspoint/uploads',
    })(post(presignedBody));
    expect(response.status).toBe(200);
  });

  it('SSE-C: a 32-byte key is signed and returned as the three headers the PUT must carry', async () => {
    const key = new Uint8Array(32).fill(7);
    const body = await (await createUploadHandler({ ...settings, sseCustomerKey: key })(post(presignedBody))).json();
    expect(body.headers).toMatchObject({
      'x-amz-server-side-encryption-customer-algorithm': 'AES256',
      'x-amz-server-side-encryption-customer-key': btoa(String.fromCharCode(...key)),
    });
    expect(body.headers['x-amz-server-side-encryption-customer-key-MD5']).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(new URL(body.url).searchParams.get('X-Amz-SignedHeaders')).toContain('x-amz-server-side-encryption-customer-key');
  });
});
