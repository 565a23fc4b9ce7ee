import { describe, expect, it } from 'vitest';
import { createCommandPartPresigner, createPartPresigner, type PartPresignInput } from './part-presign';
import { createCommandPresigner, createPresigner, type PresignInput } from './presign';
import { resolveStorageSettings, type StorageSettings } from './settings';
import { createStorageClient } from './storage-client';

// The fast presigner (address resolved once; signed by sigv4-query.ts, or one S3RequestPresigner for a
// probed address) must sign exactly what getSignedUrl with a PutObjectCommand signs, byte for byte, for
// every kind of storage address and every optional header.

const base = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', bucket: 'my-bucket', region: 'eu-west-1' };

const storages: [string, StorageSettings][] = [
  ['AWS, virtual-hosted', base],
  ['AWS us-east-1', { ...base, region: 'us-east-1' }],
  ['AWS, a newer region', { ...base, region: 'ap-southeast-5' }],
  ['AWS GovCloud', { ...base, region: 'us-gov-west-1' }],
  ['AWS, path style', { ...base, forcePathStyle: true }],
  ['AWS China partition', { ...base, region: 'cn-north-1' }],
  ['AWS, bucket with dots', { ...base, bucket: 'my.dotted.bucket' }],
  ['endpoint, path style, port', { ...base, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }],
  ['endpoint with a path, path style', { ...base, endpoint: 'https://storage.example.com/s3', forcePathStyle: true }],
  ['R2-like endpoint, virtual-hosted', { ...base, region: 'auto', endpoint: 'https://account.r2.cloudflarestorage.com' }],
  ['SSE-C key', { ...base, sseCustomerKey: new Uint8Array(32).fill(9) }],
  ['no canned ACL', { ...base, objectAcl: 'none' }],
];

const inputs: [string, Omit<PresignInput, 'signingDate'>][] = [
  ['plain', { key: 'next-s3-uploads/abc/photo.jpg', contentType: 'image/jpeg', expiresIn: 3600 }],
  ["S3-safe punctuation and unicode", { key: "next-s3-uploads/x/holiday (1)!'*.jpg", contentType: 'image/jpeg', expiresIn: 3600 }],
  ['unicode and spaces', { key: 'users/42/résumé final 写真.pdf', contentType: 'application/pdf', expiresIn: 60 }],
  [
    'disposition, size, metadata',
    {
      key: 'k/a.html',
      contentType: 'text/html',
      expiresIn: 900,
      contentDisposition: 'attachment; filename="a.html"',
      contentLength: 4096,
      metadata: { 'User-Id': '42', origin: 'upbeam' },
    },
  ],
  // A signed header value that is not canonical: blanks in a row, a tab, leading and trailing blanks.
  ['blanks in a signed header value', { key: 'k/b.txt', contentType: 'text/plain', expiresIn: 60, contentDisposition: ' attachment;  filename="a\tb.txt" ' }],
  // The object's checksum, a header (never hoisted into the query), and If-None-Match (issue 46).
  ['CRC32C and If-None-Match', { key: 'k/c.bin', contentType: 'application/octet-stream', expiresIn: 60, checksum: { algorithm: 'crc32c', value: 'yZRlqg==' }, ifNoneMatch: true }],
  ['CRC64NVME', { key: 'k/c.bin', contentType: 'application/octet-stream', expiresIn: 60, contentLength: 9, checksum: { algorithm: 'crc64nvme', value: 'rosUhgp5mIg=' } }],
  ['SHA-256', { key: 'k/c.bin', contentType: 'application/octet-stream', expiresIn: 60, checksum: { algorithm: 'sha256', value: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=' } }],
  ['MD5 (Content-MD5)', { key: 'k/c.bin', contentType: 'application/octet-stream', expiresIn: 60, checksum: { algorithm: 'md5', value: 'CY9rzUYh03PK3k6DJie09g==' }, ifNoneMatch: true }],
];

function normalized(url: string) {
  const parsed = new URL(url);
  const params = [...parsed.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  return { origin: parsed.origin, pathname: parsed.pathname, params };
}

describe.each(storages)('fast presigner = getSignedUrl: %s', (_, storage) => {
  const settings = resolveStorageSettings(storage, {});
  const client = createStorageClient(settings);
  const signers = client.then((resolved) => ({
    fast: createPresigner(settings, () => client),
    reference: createCommandPresigner(settings, resolved),
  }));

  it.each(inputs)('%s', async (_, input) => {
    const { fast, reference } = await signers;
    const signingDate = new Date('2026-11-22T10:00:00Z');
    const [ours, theirs] = await Promise.all([fast({ ...input, signingDate }), reference({ ...input, signingDate })]);
    expect(normalized(ours.url)).toEqual(normalized(theirs.url));
    expect(ours.url).toBe(theirs.url);
    expect(ours.headers).toEqual(theirs.headers);
  });
});

const parts: [string, Omit<PartPresignInput, 'signingDate'>][] = [
  ['first part', { key: 'next-s3-uploads/abc/video.mp4', uploadId: 'VXBsb2FkIElE-2~x.y', partNumber: 1, contentLength: 5 * 1024 * 1024, expiresIn: 3600 }],
  ['last part, unicode key', { key: 'users/42/résumé final 写真.pdf', uploadId: '2~abc', partNumber: 10000, contentLength: 17, expiresIn: 900 }],
  ['a CRC32C part', { key: 'k/v.mp4', uploadId: '2~abc', partNumber: 2, contentLength: 17, expiresIn: 900, checksum: { algorithm: 'crc32c', value: 'yZRlqg==' } }],
  ['a SHA-256 part', { key: 'k/v.mp4', uploadId: '2~abc', partNumber: 3, contentLength: 17, expiresIn: 900, checksum: { algorithm: 'sha256', value: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=' } }],
  ['an MD5 part', { key: 'k/v.mp4', uploadId: '2~abc', partNumber: 4, contentLength: 17, expiresIn: 900, checksum: { algorithm: 'md5', value: 'CY9rzUYh03PK3k6DJie09g==' } }],
];

describe.each(storages)('fast UploadPart presigner = getSignedUrl(UploadPartCommand): %s', (_, storage) => {
  const settings = resolveStorageSettings(storage, {});
  const client = createStorageClient(settings);
  const signers = client.then((resolved) => ({
    fast: createPartPresigner(settings, () => client),
    reference: createCommandPartPresigner(settings, resolved),
  }));

  it.each(parts)('%s', async (_, input) => {
    const { fast, reference } = await signers;
    const signingDate = new Date('2026-11-22T10:00:00Z');
    const [ours, theirs] = await Promise.all([fast({ ...input, signingDate }), reference({ ...input, signingDate })]);
    expect(normalized(ours.url)).toEqual(normalized(theirs.url));
    expect(ours.url).toBe(theirs.url);
    expect(ours.headers).toEqual(theirs.headers);
    const url = new URL(ours.url);
    expect(url.searchParams.get('partNumber')).toBe(String(input.partNumber));
    expect(url.searchParams.get('uploadId')).toBe(input.uploadId);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
  });
});

describe('canned ACL (objectAcl)', () => {
  it('is signed as a header the browser sends, never hoisted into the query string', async () => {
    const settings = resolveStorageSettings({ ...base, endpoint: 'http://127.0.0.1:9000', forcePathStyle: true }, {});
    const { url, headers } = await createPresigner(settings, () => createStorageClient(settings))({ key: 'a', contentType: 'a/b', expiresIn: 60 });
    expect(headers['x-amz-acl']).toBe('private');
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('x-amz-acl');
    expect(new URL(url).searchParams.has('x-amz-acl')).toBe(false);
  });

  it("is left out with objectAcl 'none'", async () => {
    const settings = resolveStorageSettings({ ...base, objectAcl: 'none' }, {});
    const { url, headers } = await createPresigner(settings, () => createStorageClient(settings))({ key: 'a', contentType: 'a/b', expiresIn: 60 });
    expect(headers).not.toHaveProperty('x-amz-acl');
    expect(url).not.toContain('x-amz-acl');
  });
});

describe('presigner for an access-point ARN', () => {
  it('keeps the getSignedUrl path', async () => {
    const settings = resolveStorageSettings({ ...base, bucket: 'arn:aws:s3:eu-west-1:123456789012:accesspoint/uploads' }, {});
    const { url } = await createPresigner(settings, () => createStorageClient(settings))({ key: 'a', contentType: 'a/b', expiresIn: 60 });
    expect(new URL(url).hostname).toBe('uploads-123456789012.s3-accesspoint.eu-west-1.amazonaws.com');
  });
});

describe('sigv4-query: the signing key kept per day', () => {
  it('signs across midnight UTC with each day its own key, as getSignedUrl does', async () => {
    const settings = resolveStorageSettings(base, {});
    const client = await createStorageClient(settings);
    const fast = createPresigner(settings, async () => client);
    const reference = createCommandPresigner(settings, client);
    const input = { key: 'next-s3-uploads/abc/photo.jpg', contentType: 'image/jpeg', expiresIn: 3600 };
    for (const at of ['2026-11-22T23:59:59Z', '2026-11-23T00:00:01Z', '2026-11-22T12:00:00Z']) {
      const signingDate = new Date(at);
      const [ours, theirs] = await Promise.all([fast({ ...input, signingDate }), reference({ ...input, signingDate })]);
      expect(ours.url).toBe(theirs.url);
    }
  });

  it('refuses a lifetime over 7 days, as the SDK does', async () => {
    const settings = resolveStorageSettings(base, {});
    const fast = createPresigner(settings, () => createStorageClient(settings));
    await expect(fast({ key: 'a', contentType: 'a/b', expiresIn: 7 * 24 * 3600 + 1 })).rejects.toThrow(/less than one week/);
  });
});
