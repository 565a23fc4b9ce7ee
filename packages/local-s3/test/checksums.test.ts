import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type ChecksumAlgorithm,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from '../src/index';

// S3's additional checksums and conditional writes on local-s3, against values computed by the AWS SDK's own
// reference implementations: the SDK's flexible checksums (`ChecksumAlgorithm`: the SDK hashes the body
// itself), @aws-crypto/crc32c, @aws-sdk/crc64-nvme and node:crypto. A body that does not match its checksum
// is refused as S3 refuses it, with nothing stored.

const BUCKET = 'uploads';
let storage: LocalS3;
let directory: string;
/** Sends values as given (`WHEN_REQUIRED`): the tests choose the checksum, right or wrong. */
let s3: S3Client;
/** Computes the checksum of `ChecksumAlgorithm` itself, as an app's SDK does by default. */
let sdk: S3Client;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'upbeam-local-s3-checksums-'));
  storage = await startLocalS3({ directory, bucket: BUCKET });
  s3 = storage.createClient();
  sdk = new S3Client({ region: storage.region, endpoint: storage.endpoint, forcePathStyle: true, credentials: storage.handlerSettings });
});
afterAll(async () => {
  s3?.destroy();
  sdk?.destroy();
  await storage?.close();
  await rm(directory, { recursive: true, force: true });
});

/** The reference value of each algorithm for `body`, base64 as S3 writes it (the CRCs big-endian). */
async function reference(algorithm: 'CRC32C' | 'CRC64NVME' | 'SHA256' | 'SHA1' | 'MD5', body: Uint8Array): Promise<string> {
  switch (algorithm) {
    case 'CRC32C': {
      const bytes = Buffer.alloc(4);
      bytes.writeUInt32BE(crc32c(body));
      return bytes.toString('base64');
    }
    case 'CRC64NVME': {
      const crc = new Crc64Nvme();
      crc.update(body);
      return Buffer.from(await crc.digest()).toString('base64');
    }
    default:
      return createHash(algorithm.toLowerCase()).update(body).digest('base64');
  }
}

const field = (algorithm: string) => `Checksum${algorithm}` as 'ChecksumCRC32C';

async function s3Error(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { name: string; message: string; $metadata: { httpStatusCode: number } } | undefined;
  return error && { name: error.name, status: error.$metadata.httpStatusCode, message: error.message };
}

const stored = async (Key: string) => {
  const answer = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key })).catch((error: { name: string }) => error.name);
  return typeof answer === 'string' ? answer : Buffer.from(await answer.Body!.transformToByteArray()).toString();
};

const body = (text: string) => Buffer.from(text);
const changed = (data: Buffer) => Buffer.concat([data.subarray(0, 3), Buffer.from([data[3]! ^ 1]), data.subarray(4)]);

describe('PutObject with x-amz-checksum-*', () => {
  it('the reference values: CRC32C and CRC64NVME of "123456789" are e3069283 and ae8b14860a799888', async () => {
    const check = body('123456789');
    expect(Buffer.from(await reference('CRC32C', check), 'base64').toString('hex')).toBe('e3069283');
    expect(Buffer.from(await reference('CRC64NVME', check), 'base64').toString('hex')).toBe('ae8b14860a799888');
  });

  it.each(['CRC32C', 'CRC64NVME', 'SHA256', 'SHA1', 'CRC32'] as const)(
    '%s computed by the AWS SDK is verified, stored, and answered by HeadObject and GetObject with ChecksumMode',
    async (algorithm) => {
      const Key = `sdk/${algorithm}.txt`;
      const data = body(`bytes hashed by the AWS SDK with ${algorithm}`);
      const put = await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: data, ChecksumAlgorithm: algorithm as ChecksumAlgorithm }));
      const expected = algorithm === 'CRC32' ? put.ChecksumCRC32! : await reference(algorithm, data);
      expect(put[field(algorithm)]).toBe(expected);
      const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key, ChecksumMode: 'ENABLED' }));
      expect(head[field(algorithm)]).toBe(expected);
      expect(head.ChecksumType).toBe('FULL_OBJECT');
      const get = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key, ChecksumMode: 'ENABLED' }));
      expect(get[field(algorithm)]).toBe(expected);
      expect(Buffer.from(await get.Body!.transformToByteArray())).toEqual(data);
      // Without the checksum mode, no checksum (as S3).
      const plain = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key }));
      expect(plain[field(algorithm)]).toBeUndefined();
    },
  );

  it.each(['CRC32C', 'CRC64NVME', 'SHA256'] as const)('%s: a changed byte is refused with BadDigest and nothing is stored', async (algorithm) => {
    const Key = `changed/${algorithm}.txt`;
    const data = body(`the bytes the browser hashed for ${algorithm}`);
    const value = await reference(algorithm, data);
    const refused = await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: changed(data), [field(algorithm)]: value })));
    expect(refused).toEqual({ name: 'BadDigest', status: 400, message: `The ${algorithm} you specified did not match the calculated checksum.` });
    expect(await stored(Key)).toBe('NoSuchKey');

    // Over an object already there: it stays as it was.
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('before') }));
    expect(await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: changed(data), [field(algorithm)]: value })))).toMatchObject({
      name: 'BadDigest',
    });
    expect(await stored(Key)).toBe('before');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: data, [field(algorithm)]: value }));
    expect(await stored(Key)).toBe(data.toString());
  });

  it('a malformed value is refused with InvalidRequest, as S3 (base64 of another length, or not written the one way)', async () => {
    const cases: [Partial<PutObjectCommandInput>, string][] = [
      [{ ChecksumCRC32C: 'short===' }, 'x-amz-checksum-crc32c'],
      [{ ChecksumCRC64NVME: 'rosUhgp5mIh=' }, 'x-amz-checksum-crc64nvme'],
      [{ ChecksumSHA256: 'not base64!' }, 'x-amz-checksum-sha256'],
    ];
    for (const [checksum, header] of cases) {
      const refused = await s3Error(s3.send(new PutObjectCommand({ ...checksum, Bucket: BUCKET, Key: 'malformed.txt', Body: body('x') })));
      expect(refused).toEqual({ name: 'InvalidRequest', status: 400, message: `Value for ${header} header is invalid.` });
    }
    const two = await s3Error(
      s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'malformed.txt', Body: body('x'), ChecksumCRC32C: await reference('CRC32C', body('x')), ChecksumSHA256: await reference('SHA256', body('x')) })),
    );
    expect(two).toMatchObject({ name: 'InvalidRequest', message: 'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.' });
    expect(await stored('malformed.txt')).toBe('NoSuchKey');
  });

  it('Content-MD5: a changed byte is refused with BadDigest, a malformed one with InvalidDigest; nothing stored', async () => {
    const data = body('bytes with their Content-MD5');
    const md5 = await reference('MD5', data);
    expect(await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'md5.txt', Body: changed(data), ContentMD5: md5 })))).toEqual({
      name: 'BadDigest',
      status: 400,
      message: 'The Content-MD5 you specified did not match what we received.',
    });
    expect(await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'md5.txt', Body: data, ContentMD5: 'abc' })))).toMatchObject({
      name: 'InvalidDigest',
      status: 400,
    });
    expect(await stored('md5.txt')).toBe('NoSuchKey');
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'md5.txt', Body: data, ContentMD5: md5 }));
    expect(await stored('md5.txt')).toBe(data.toString());
  });

  it('a PUT without a checksum leaves none: an object put again without one no longer answers the old one', async () => {
    const Key = 'replaced-checksum.txt';
    await sdk.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('first'), ChecksumAlgorithm: 'SHA256' }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('second') }));
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key, ChecksumMode: 'ENABLED' }));
    expect(head.ChecksumSHA256).toBeUndefined();
    expect(head.ChecksumType).toBeUndefined();
  });
});

describe('conditional writes', () => {
  it('PutObject with If-None-Match: * stores once; a second is refused 412 PreconditionFailed and the first stays', async () => {
    const Key = 'once/a.txt';
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('first'), IfNoneMatch: '*' }));
    expect(await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('second'), IfNoneMatch: '*' })))).toMatchObject({
      name: 'PreconditionFailed',
      status: 412,
    });
    expect(await stored(Key)).toBe('first');
    // Without the condition, an overwrite is allowed (as S3).
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('third') }));
    expect(await stored(Key)).toBe('third');
  });

  it('of two PutObject with If-None-Match: * sent at once, one is stored and the other refused', async () => {
    const Key = 'once/race.txt';
    const results = await Promise.all(
      ['one', 'two'].map((text) =>
        s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body(text), IfNoneMatch: '*' })).then(
          () => text,
          (error: { name: string }) => error.name,
        ),
      ),
    );
    expect(results.filter((result) => result === 'PreconditionFailed')).toHaveLength(1);
    expect(await stored(Key)).toBe(results.find((result) => result !== 'PreconditionFailed'));
  });

  it('If-Match: the object is replaced only when its ETag is the one given (412 otherwise, 404 without an object)', async () => {
    const Key = 'if-match.txt';
    const { ETag } = await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('first') }));
    expect(await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('x'), IfMatch: '"0123456789abcdef0123456789abcdef"' })))).toMatchObject({
      name: 'PreconditionFailed',
      status: 412,
    });
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('second'), IfMatch: ETag }));
    expect(await stored(Key)).toBe('second');
    expect(await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'if-match-none.txt', Body: body('x'), IfMatch: ETag })))).toMatchObject({
      name: 'NoSuchKey',
      status: 404,
    });
  });
});

type SourceData = string | ArrayBuffer | ArrayBufferView;
const binary = (data: SourceData) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 (and its HMAC) for `SignatureV4`, from node:crypto. */
class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', binary(secret));
  }
  update(data: SourceData): void {
    this.hash.update(binary(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

/**
 * A presigned PUT URL for `key` that signs `headers` as signed headers (not hoisted into the query), as the
 * upload handler signs `x-amz-checksum-*` and `If-None-Match`; payload `UNSIGNED-PAYLOAD`, as `getSignedUrl`.
 */
async function presignedPut(key: string, headers: Record<string, string>, hoisted: Record<string, string> = {}): Promise<string> {
  const { hostname, port } = new URL(storage.endpoint);
  const signer = new SignatureV4({ credentials: storage.handlerSettings, region: storage.region, service: 's3', sha256: Sha256 });
  const signed = await signer.presign(
    {
      method: 'PUT',
      protocol: 'http:',
      hostname,
      port: Number(port),
      path: `/${BUCKET}/${key}`,
      query: { 'x-id': 'PutObject' },
      headers: { host: `${hostname}:${port}`, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', ...headers, ...hoisted },
    },
    { expiresIn: 300, unhoistableHeaders: new Set(Object.keys(headers)) },
  );
  return `${storage.endpoint}${signed.path}?${new URLSearchParams(signed.query as Record<string, string>).toString()}`;
}

describe('presigned PUT with its checksum signed', () => {
  it('accepts the bytes hashed, refuses others (BadDigest) and a request without the signed header (403); If-None-Match signed refuses an overwrite', async () => {
    const data = body('bytes hashed before the URL was asked for');
    const headers = { 'x-amz-checksum-crc64nvme': await reference('CRC64NVME', data), 'if-none-match': '*' };
    const url = await presignedPut('presigned/a.txt', headers);

    const other = await fetch(url, { method: 'PUT', headers, body: changed(data) });
    expect(other.status).toBe(400);
    expect(await other.text()).toContain('<Code>BadDigest</Code>');
    const unsigned = await fetch(url, { method: 'PUT', headers: { 'if-none-match': '*' }, body: data });
    expect(unsigned.status).toBe(403);
    expect(await stored('presigned/a.txt')).toBe('NoSuchKey');

    const put = await fetch(url, { method: 'PUT', headers, body: data });
    expect(put.status).toBe(200);
    expect(put.headers.get('x-amz-checksum-crc64nvme')).toBe(headers['x-amz-checksum-crc64nvme']);
    expect(await stored('presigned/a.txt')).toBe(data.toString());

    const again = await fetch(url, { method: 'PUT', headers, body: data });
    expect(again.status).toBe(412);
    expect(await again.text()).toContain('<Code>PreconditionFailed</Code>');
  });

  it('a checksum the presigner hoisted into the query is verified as the header would be', async () => {
    const data = body('bytes whose checksum travels in the query');
    const url = await presignedPut('presigned/hoisted.txt', {}, { 'x-amz-checksum-crc32c': await reference('CRC32C', data) });
    expect(url).toContain('x-amz-checksum-crc32c=');
    expect((await fetch(url, { method: 'PUT', body: changed(data) })).status).toBe(400);
    expect((await fetch(url, { method: 'PUT', body: data })).status).toBe(200);
    expect(await stored('presigned/hoisted.txt')).toBe(data.toString());
  });

  it('a header the URL does not sign is refused (403, presigned-headers.ts), an added x-amz-checksum-* among them', async () => {
    const data = body('x');
    const url = await presignedPut('presigned/b.txt', {});
    const added = await fetch(url, { method: 'PUT', headers: { 'x-amz-checksum-crc32c': await reference('CRC32C', data) }, body: data });
    expect(added.status).toBe(403);
    expect(await added.text()).toContain('There were headers present in the request which were not signed');
  });
});
