import { createHash, randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createTestBucket, type RadosgwBucket } from '@upbeam/ceph-rgw';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler } from '../src/index';

// Issue 46 on a real Ceph radosgw (16.2): what it verifies of a presigned PUT's checksum and conditional
// headers when they are signed into the URL, as the handler signs them (the header names and values of the
// answer's `headers`, signed; `x-amz-checksum-*` kept as headers, not hoisted into the query). The URLs here
// are signed with the SDK's presigner directly: these are storage's facts, which the provider table
// (providers.ts) and the handler's signing rely on.

const connection = inject('radosgw');

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('base64');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

/** S3's error code in an XML error body (`<Code>BadDigest</Code>`), or undefined. */
const codeOf = (body: string) => /<Code>([^<]+)<\/Code>/.exec(body)?.[1];

describe.skipIf(!connection)('checksums and conditional writes on radosgw (issue 46)', () => {
  let storage: RadosgwBucket;
  let admin: S3Client;

  beforeAll(async () => {
    storage = await createTestBucket(connection!, 'checksum');
    admin = storage.createClient();
  });
  afterAll(() => admin?.destroy());

  /** A presigned PUT URL of `key` with `headers` signed (as the handler's answer lists them). */
  async function presignedPut(key: string, headers: Record<string, string>, input: Partial<ConstructorParameters<typeof PutObjectCommand>[0]> = {}) {
    const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
    return getSignedUrl(admin, new PutObjectCommand({ Bucket: storage.bucket, Key: key, ...input }), {
      expiresIn: 300,
      signableHeaders: names,
      // x-amz-* headers would be moved into the query string (then storage compares nothing with the body).
      unhoistableHeaders: names,
    });
  }

  async function put(url: string, body: Uint8Array, headers: Record<string, string>) {
    const response = await fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });
    const text = await response.text();
    return { status: response.status, code: codeOf(text) };
  }

  async function stored(key: string): Promise<Uint8Array | undefined> {
    try {
      const object = await admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }));
      return await object.Body!.transformToByteArray();
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  it('refuses a changed byte under a Content-MD5 signed into the URL (400 BadDigest) and stores nothing; a header changed to match is refused (403: the signature)', async () => {
    const key = `md5/${Math.random().toString(36).slice(2)}.bin`;
    const bytes = randomBytes(64 * 1024);
    const headers = { 'content-md5': md5(bytes) };
    const url = await presignedPut(key, headers, { ContentMD5: headers['content-md5'] });
    const changed = Uint8Array.from(bytes);
    changed[1000] = changed[1000]! ^ 0x01;

    expect(await put(url, changed, headers)).toEqual({ status: 400, code: 'BadDigest' });
    expect(await stored(key)).toBeUndefined();
    // The changed bytes with their own MD5: the URL signed the first one (radosgw says AccessDenied, S3
    // SignatureDoesNotMatch).
    expect((await put(url, changed, { 'content-md5': md5(changed) })).status).toBe(403);
    expect(await stored(key)).toBeUndefined();
    // The bytes it was signed for.
    expect((await put(url, bytes, headers)).status).toBe(200);
    expect(Buffer.from((await stored(key))!).equals(bytes)).toBe(true);
  });

  it('refuses a changed byte of a part under a Content-MD5 signed into its part URL (400 BadDigest)', async () => {
    const key = `md5-part/${Math.random().toString(36).slice(2)}.bin`;
    const { UploadId } = await admin.send(new CreateMultipartUploadCommand({ Bucket: storage.bucket, Key: key }));
    try {
      const part = randomBytes(64 * 1024);
      const headers = { 'content-md5': md5(part) };
      const url = await getSignedUrl(
        admin,
        new UploadPartCommand({ Bucket: storage.bucket, Key: key, UploadId, PartNumber: 1, ContentMD5: headers['content-md5'] }),
        { expiresIn: 300, signableHeaders: new Set(['content-md5']) },
      );
      const changed = Uint8Array.from(part);
      changed[0] = changed[0]! ^ 0x80;
      expect(await put(url, changed, headers)).toEqual({ status: 400, code: 'BadDigest' });
      expect((await put(url, part, headers)).status).toBe(200);
    } finally {
      await admin.send(new AbortMultipartUploadCommand({ Bucket: storage.bucket, Key: key, UploadId })).catch(() => {});
    }
  });

  it('refuses a second PUT to the same key when If-None-Match: * is signed into the URL (412), the first object kept', async () => {
    const key = `once/${Math.random().toString(36).slice(2)}.bin`;
    const first = randomBytes(1024);
    const second = randomBytes(1024);
    const headers = { 'if-none-match': '*' };
    const url = await presignedPut(key, headers, { IfNoneMatch: '*' });
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain('if-none-match');

    expect((await put(url, first, headers)).status).toBe(200);
    expect(await put(url, second, headers)).toEqual({ status: 412, code: 'PreconditionFailed' });
    // A second URL signed for the same key (another preparation) is refused alike.
    const again = await presignedPut(key, headers, { IfNoneMatch: '*' });
    expect((await put(again, second, headers)).status).toBe(412);
    expect(Buffer.from((await stored(key))!).equals(first)).toBe(true);
  });

  // radosgw 16.2 honours If-None-Match on PutObject only: CompleteMultipartUpload with `If-None-Match: *`
  // (signed, so it reached radosgw) over an existing key succeeds and replaces the object. A multipart
  // upload's "no overwrite" on radosgw 16 cannot rest on storage (S3 added it to CompleteMultipartUpload in
  // 2024).
  it('does not refuse CompleteMultipartUpload with If-None-Match: * over an existing key (radosgw 16 replaces the object)', async () => {
    const key = `once-multipart/${Math.random().toString(36).slice(2)}.bin`;
    const first = randomBytes(1024);
    const second = randomBytes(1024);
    await admin.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: first }));
    const { UploadId } = await admin.send(new CreateMultipartUploadCommand({ Bucket: storage.bucket, Key: key }));
    try {
      const { ETag } = await admin.send(new UploadPartCommand({ Bucket: storage.bucket, Key: key, UploadId, PartNumber: 1, Body: second }));
      const url = await getSignedUrl(
        admin,
        new CompleteMultipartUploadCommand({ Bucket: storage.bucket, Key: key, UploadId, IfNoneMatch: '*' }),
        { expiresIn: 300, signableHeaders: new Set(['if-none-match']) },
      );
      expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain('if-none-match');
      const xml = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${ETag}</ETag></Part></CompleteMultipartUpload>`;
      const response = await fetch(url, { method: 'POST', body: xml, headers: { 'if-none-match': '*' } });
      expect(response.status).toBe(200);
      await response.text();
      expect(Buffer.from((await stored(key))!).equals(second)).toBe(true);
    } finally {
      await admin.send(new AbortMultipartUploadCommand({ Bucket: storage.bucket, Key: key, UploadId })).catch(() => {});
    }
  });

  // radosgw 16.2 predates S3's additional checksums: it ignores the x-amz-checksum-* headers (a wrong
  // crc32c, crc64nvme or sha256 value is neither refused nor kept). A wrong value signed into the URL is
  // stored all the same, and HEAD with checksum mode reports no checksum: such storage verifies md5 only (the provider table's radosgw row).
  it.each([
    ['crc32c', 'x-amz-checksum-crc32c', 'ChecksumCRC32C', 'AAAAAA=='],
    ['crc64nvme', 'x-amz-checksum-crc64nvme', 'ChecksumCRC64NVME', 'AAAAAAAAAAA='],
    ['sha256', 'x-amz-checksum-sha256', 'ChecksumSHA256', sha256(Buffer.from('other bytes'))],
  ] as const)('ignores a wrong x-amz-checksum-%s signed into the URL: the object is stored and no checksum reported', async (_name, header, field, wrong) => {
    const key = `ignored/${Math.random().toString(36).slice(2)}.bin`;
    const bytes = randomBytes(4096);
    const headers = { [header]: wrong };
    const url = await presignedPut(key, headers, { [field]: wrong });
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toContain(header);
    expect((await put(url, bytes, headers)).status).toBe(200);
    expect(Buffer.from((await stored(key))!).equals(bytes)).toBe(true);
    const head = await admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: key, ChecksumMode: 'ENABLED' }));
    expect([head.ChecksumCRC32C, head.ChecksumCRC64NVME, head.ChecksumSHA256]).toEqual([undefined, undefined, undefined]);
  });
});

// The same facts through the handler (presign.ts): what a presigned answer's URL and `headers` let through on
// radosgw, as the browser sends them. The route asks for md5 (what radosgw 16 verifies) with conditional writes.
describe.skipIf(!connection)('presigned answers on radosgw: the signed checksum and If-None-Match (issue 46)', () => {
  let storage: RadosgwBucket;
  let admin: S3Client;

  beforeAll(async () => {
    storage = await createTestBucket(connection!, 'checksum-handler');
    admin = storage.createClient();
  });
  afterAll(() => admin?.destroy());

  async function prepare(bytes: Uint8Array) {
    const handler = createUploadHandler({ ...storage.handlerSettings, checksum: 'md5', conditionalWrites: true });
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          filename: 'photo.png',
          filetype: 'image/png',
          filesize: bytes.byteLength,
          _upload: { strategy: 'presigned', checksum: { algorithm: 'md5', value: md5(bytes) } },
        }),
      }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as { key: string; url: string; headers: Record<string, string>; checksum?: string; ifNoneMatch?: true };
  }

  const send = async (url: string, body: Uint8Array, headers: Record<string, string>) => {
    const response = await fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });
    return { status: response.status, code: codeOf(await response.text()) };
  };

  it('a changed byte is refused (400 BadDigest), nothing stored; the bytes hashed are stored once, a replay of the URL refused 412', async () => {
    const bytes = randomBytes(32 * 1024);
    const answer = await prepare(bytes);
    expect(answer.checksum).toBe('md5');
    expect(answer.ifNoneMatch).toBe(true);
    const changed = Uint8Array.from(bytes);
    changed[5] = changed[5]! ^ 0x10;

    expect(await send(answer.url, changed, answer.headers)).toEqual({ status: 400, code: 'BadDigest' });
    const head = () => admin.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: answer.key })).then(() => 200, (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode);
    expect(await head()).toBe(404);
    expect((await send(answer.url, bytes, answer.headers)).status).toBe(200);
    // The same URL sent again (a retry whose first answer was lost, or a replay): the key is written once.
    expect(await send(answer.url, bytes, answer.headers)).toEqual({ status: 412, code: 'PreconditionFailed' });
  });
});
