import { createHmac } from 'node:crypto';
import { MAX_SINGLE_PUT_SIZE, OBJECT_CACHE_CONTROL } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { createUploadHandler } from './handler';
import { postSizeRange } from './operations/prepare-post';
import { createPolicySigner, PRESIGNED_POST_EXPIRES_IN, taggingXml } from './presign-post';

// The POST policy: its conditions exactly, its expiry, the session token, and a signature that an independent
// SigV4 derivation (node:crypto here) agrees with. The real POST against storage: test/presigned-post-storage.test.ts.

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const settings = { bucket: 'my-bucket', region: 'eu-west-1' };
const signingDate = new Date('2026-11-29T17:30:05.678Z');
const url = () => Promise.resolve('http://127.0.0.1:9000/my-bucket');

function policyOf(fields: Record<string, string>) {
  return JSON.parse(Buffer.from(fields.policy!, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
}

/** SigV4's signing key and the policy's signature, derived here without the package's code. */
function expectedSignature(secret: string, day: string, region: string, policy: string): string {
  let key: Buffer | string = `AWS4${secret}`;
  for (const part of [day, region, 's3', 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(policy).digest('hex');
}

describe('POST policy', () => {
  it('binds bucket, key, type, size range, Cache-Control, metadata, tags, disposition, 201 and the credential, in the fields order', async () => {
    const sign = createPolicySigner(settings, credentials, url);
    const answer = await sign({
      key: 'uploads/x/résumé & co.pdf',
      contentType: 'application/pdf',
      minSize: 1,
      maxSize: 1048576,
      contentDisposition: 'attachment',
      metadata: { 'User-Id': '42' },
      tagging: 'team=a%26b&kind=doc',
      expiresIn: PRESIGNED_POST_EXPIRES_IN,
      signingDate,
    });
    expect(answer.url).toBe('http://127.0.0.1:9000/my-bucket');
    const tagging = '<Tagging><TagSet><Tag><Key>team</Key><Value>a&#38;b</Value></Tag><Tag><Key>kind</Key><Value>doc</Value></Tag></TagSet></Tagging>';
    const credential = 'AKIDEXAMPLE/20261129/eu-west-1/s3/aws4_request';
    expect(Object.keys(answer.fields)).toEqual([
      'key',
      'Content-Type',
      'Cache-Control',
      'Content-Disposition',
      'x-amz-meta-user-id',
      'tagging',
      'success_action_status',
      'x-amz-algorithm',
      'x-amz-credential',
      'x-amz-date',
      'policy',
      'x-amz-signature',
    ]);
    expect(answer.fields).toMatchObject({ tagging, 'x-amz-credential': credential, 'x-amz-date': '20261129T173005Z', success_action_status: '201' });
    const policy = policyOf(answer.fields);
    expect(policy).toEqual({
      expiration: '2026-11-29T18:30:05.000Z',
      conditions: [
        { bucket: 'my-bucket' },
        ['eq', '$key', 'uploads/x/résumé & co.pdf'],
        ['eq', '$Content-Type', 'application/pdf'],
        ['content-length-range', 1, 1048576],
        ['eq', '$Cache-Control', OBJECT_CACHE_CONTROL],
        ['eq', '$Content-Disposition', 'attachment'],
        ['eq', '$x-amz-meta-user-id', '42'],
        ['eq', '$tagging', tagging],
        { success_action_status: '201' },
        { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
        { 'x-amz-credential': credential },
        { 'x-amz-date': '20261129T173005Z' },
      ],
    });
    expect(answer.expiresAt).toBe(policy.expiration);
    expect(answer.fields['x-amz-signature']).toBe(expectedSignature(credentials.secretAccessKey, '20261129', 'eu-west-1', answer.fields.policy!));
  });

  it('expires after expiresIn seconds (3600 by default in the handler)', async () => {
    const sign = createPolicySigner(settings, credentials, url);
    const answer = await sign({ key: 'k', contentType: 'text/plain', minSize: 0, maxSize: 5, expiresIn: 60, signingDate });
    expect(policyOf(answer.fields).expiration).toBe('2026-11-29T17:31:05.000Z');
    expect(PRESIGNED_POST_EXPIRES_IN).toBe(3600);
  });

  it('adds x-amz-security-token (field and condition) with session credentials, and no tagging or disposition unset', async () => {
    const sign = createPolicySigner(settings, { ...credentials, sessionToken: 'FwoGZXIvYXdzEXAMPLE' }, url);
    const answer = await sign({ key: 'k', contentType: 'text/plain', minSize: 0, maxSize: 5, expiresIn: 60, signingDate });
    expect(answer.fields['x-amz-security-token']).toBe('FwoGZXIvYXdzEXAMPLE');
    const { conditions } = policyOf(answer.fields);
    expect(conditions).toContainEqual({ 'x-amz-security-token': 'FwoGZXIvYXdzEXAMPLE' });
    expect(Object.keys(answer.fields)).not.toContain('tagging');
    expect(Object.keys(answer.fields)).not.toContain('Content-Disposition');
    // Every field but policy and the signature is named by a condition: storage refuses any other.
    const named = new Set(conditions.map((condition) => (Array.isArray(condition) ? String(condition[1]).slice(1) : Object.keys(condition as object)[0])));
    for (const field of Object.keys(answer.fields)) if (field !== 'policy' && field !== 'x-amz-signature') expect(named).toContain(field);
  });

  it('signs the canned ACL, SSE-C fields and a checksum field (but MD5, which POST cannot carry)', async () => {
    const sign = createPolicySigner({ ...settings, objectAcl: 'private', sseCustomerKey: new Uint8Array(32).fill(7) }, credentials, url);
    const answer = await sign({ key: 'k', contentType: 'text/plain', minSize: 0, maxSize: 5, expiresIn: 60, checksum: { algorithm: 'crc32c', value: 'yZRlqg==' } });
    expect(answer.fields).toMatchObject({ acl: 'private', 'x-amz-checksum-crc32c': 'yZRlqg==', 'x-amz-server-side-encryption-customer-algorithm': 'AES256' });
    const md5 = await sign({ key: 'k', contentType: 'text/plain', minSize: 0, maxSize: 5, expiresIn: 60, checksum: { algorithm: 'md5', value: 'CY9rzUYh03PK3k6DJie09g==' } });
    expect(Object.keys(md5.fields).some((name) => /md5|checksum/i.test(name) && !name.includes('customer'))).toBe(false);
  });

  it('escapes tag XML', () => {
    expect(taggingXml('a=%3Cb%3E')).toBe('<Tagging><TagSet><Tag><Key>a</Key><Value>&#60;b&#62;</Value></Tag></TagSet></Tagging>');
  });

  it('size range: 1..maxFileSize (at most 5 GiB), 0 for an empty or undeclared file, the declared size with a bytes limit', () => {
    expect(postSizeRange(10, 100, false)).toEqual({ minSize: 1, maxSize: 100 });
    expect(postSizeRange(10, undefined, false)).toEqual({ minSize: 1, maxSize: MAX_SINGLE_PUT_SIZE });
    expect(postSizeRange(0, 100, false)).toEqual({ minSize: 0, maxSize: 100 });
    expect(postSizeRange(undefined, 10 * MAX_SINGLE_PUT_SIZE, false)).toEqual({ minSize: 0, maxSize: MAX_SINGLE_PUT_SIZE });
    expect(postSizeRange(10, 100, true)).toEqual({ minSize: 10, maxSize: 10 });
  });
});

describe('createUploadHandler: presigned-post', () => {
  const storage = { accessKeyId: 'AKID', secretAccessKey: 'SECRET', bucket: 'my-bucket', region: 'eu-west-1', checksum: false as const };
  const post = (body: unknown, config = {}) =>
    createUploadHandler({ ...storage, ...config })(
      new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    );
  const body = { filename: 'cat.png', filetype: 'image/png', filesize: 1234, _upload: { strategy: 'presigned-post' } };

  // The receipt and the completion hook (which writes the upload's record to storage): the integration test.
  it('answers url, fields and expiresAt (AWS: virtual-hosted), no receipt without a hook or limits', async () => {
    const response = await post(body);
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.url).toBe('https://my-bucket.s3.eu-west-1.amazonaws.com/');
    expect(answer.fields.key).toBe(answer.key);
    expect(answer.fields['Content-Type']).toBe('image/png');
    expect(answer).not.toHaveProperty('receipt');
    expect(answer).not.toHaveProperty('ifNoneMatch');
    expect(Date.parse(answer.expiresAt) - Date.now()).toBeGreaterThan(3500_000);
  });

  it('refuses a file over 5 GiB with 400 FILE_TOO_LARGE_FOR_POST naming the other strategies, before onBeforeUpload runs', async () => {
    let hookRan = false;
    const response = await post({ ...body, filesize: MAX_SINGLE_PUT_SIZE + 1 }, { onBeforeUpload: () => void (hookRan = true) });
    expect(hookRan).toBe(false);
    expect(response.status).toBe(400);
    const error = await response.json();
    expect(error.code).toBe('FILE_TOO_LARGE_FOR_POST');
    expect(error.error).toMatch(/presigned or temporary-token/);
  });

  it('refuses on Cloudflare R2 (no POST Object) with 501 NOT_SUPPORTED, before any form is signed', async () => {
    const response = await post(body, { provider: 'r2', accountId: 'acc', region: undefined });
    expect(response.status).toBe(501);
    expect((await response.json()).error).toMatch(/does not take POST Object/);
  });

  it('is refused where the route does not allow it', async () => {
    const handler = createUploadHandler({ ...storage, routes: { avatars: { strategies: ['presigned'] } } });
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, route: 'avatars' }) }),
    );
    expect(response.status).toBe(400);
  });

  it('with a bytes limit: reserves the declared size and binds exactly it, with a receipt; past the quota 429 before anything is signed', async () => {
    const handler = createUploadHandler({
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      bucket: 'my-bucket',
      region: 'eu-west-1',
      // No storage at that port (presigning is local); the unsigned-header check runs in the integration suites.
      endpoint: 'http://127.0.0.1:9',
      forcePathStyle: true,
      checkUnsignedHeaders: false,
      checksum: false,
      limits: { bytes: { max: 250, windowSeconds: 86_400 } },
      onBeforeUpload: () => ({ subject: 'user-1' }),
    });
    const prepare = (filesize: number) =>
      handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, filesize }) }));
    const granted = await prepare(200);
    expect(granted.status).toBe(200);
    const answer = await granted.json();
    expect(answer.url).toBe('http://127.0.0.1:9/my-bucket');
    expect(typeof answer.receipt).toBe('string');
    expect(policyOf(answer.fields).conditions).toContainEqual(['content-length-range', 200, 200]);
    const refused = await prepare(51);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'bytes' });
  });
});
