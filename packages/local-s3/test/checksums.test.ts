import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type ChecksumAlgorithm,
  type CompletedPart,
  type CompleteMultipartUploadCommandInput,
  type CreateMultipartUploadCommandInput,
  type PutObjectCommandInput,
  type UploadPartCommandInput,
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
async function presignedPut(
  key: string,
  headers: Record<string, string>,
  hoisted: Record<string, string> = {},
  query: Record<string, string> = { 'x-id': 'PutObject' },
): Promise<string> {
  const { hostname, port } = new URL(storage.endpoint);
  const signer = new SignatureV4({ credentials: storage.handlerSettings, region: storage.region, service: 's3', sha256: Sha256 });
  const signed = await signer.presign(
    {
      method: 'PUT',
      protocol: 'http:',
      hostname,
      port: Number(port),
      path: `/${BUCKET}/${key}`,
      query,
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

  it("a page reads the refusals (CORS headers on them): a malformed value, a changed byte, a part without its upload's checksum", async () => {
    const origin = { origin: 'http://127.0.0.1:5173' };
    const malformed = { 'x-amz-checksum-crc32c': 'short===' };
    const refusedEarly = await fetch(await presignedPut('presigned/cors.txt', malformed), { method: 'PUT', headers: { ...malformed, ...origin }, body: 'x' });
    expect(refusedEarly.status).toBe(400);
    expect(refusedEarly.headers.get('access-control-allow-origin')).toBe('*');
    expect(refusedEarly.headers.get('access-control-expose-headers')).toContain('x-amz-checksum-crc64nvme');

    const given = { 'x-amz-checksum-crc32c': await reference('CRC32C', body('y')) };
    const refusedLate = await fetch(await presignedPut('presigned/cors.txt', given), { method: 'PUT', headers: { ...given, ...origin }, body: 'x' });
    expect(refusedLate.status).toBe(400);
    expect(refusedLate.headers.get('access-control-allow-origin')).toBe('*');

    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'presigned/cors.bin', ChecksumAlgorithm: 'SHA256' }));
    const part = await presignedPut('presigned/cors.bin', {}, {}, { partNumber: '1', uploadId: UploadId! });
    const without = await fetch(part, { method: 'PUT', headers: origin, body: 'x' });
    expect(without.status).toBe(400);
    expect(without.headers.get('access-control-allow-origin')).toBe('*');
    await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'presigned/cors.bin', UploadId }));
  });

  it('a header the URL does not sign is refused (403, presigned-headers.ts), an added x-amz-checksum-* among them', async () => {
    const data = body('x');
    const url = await presignedPut('presigned/b.txt', {});
    const headers = { 'x-amz-checksum-crc32c': await reference('CRC32C', data), origin: 'http://127.0.0.1:5173' };
    const added = await fetch(url, { method: 'PUT', headers, body: data });
    expect(added.status).toBe(403);
    expect(await added.text()).toContain('There were headers present in the request which were not signed');
    // With the bucket's CORS headers, as S3: a page reads the refusal, not "no CORS rule".
    expect(added.headers.get('access-control-allow-origin')).toBe('*');
  });
});

const MULTIPART_PARTS = [body('a'.repeat(1500)), body('b'.repeat(700))];

/** Creates an upload with `algorithm` (and `type`) and sends its parts, the AWS SDK hashing each part. */
async function startChecksumUpload(Key: string, algorithm: 'CRC32C' | 'CRC64NVME' | 'SHA256', type?: 'COMPOSITE' | 'FULL_OBJECT') {
  const created = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ChecksumAlgorithm: algorithm, ChecksumType: type }));
  expect(created.ChecksumAlgorithm).toBe(algorithm);
  expect(created.ChecksumType).toBe(type ?? (algorithm === 'CRC64NVME' ? 'FULL_OBJECT' : 'COMPOSITE'));
  const parts: CompletedPart[] = [];
  for (const [index, Body] of MULTIPART_PARTS.entries()) {
    const PartNumber = index + 1;
    const sent = await sdk.send(
      new UploadPartCommand({ Bucket: BUCKET, Key, UploadId: created.UploadId, PartNumber, Body, ChecksumAlgorithm: algorithm }),
    );
    expect(sent[field(algorithm)]).toBe(await reference(algorithm, Body));
    parts.push({ PartNumber, ETag: sent.ETag, [field(algorithm)]: sent[field(algorithm)] });
  }
  return { uploadId: created.UploadId!, parts };
}

/** The composite checksum of the parts, from the references: the algorithm's digest of the parts' digests joined, `-{parts}`. */
async function compositeReference(algorithm: 'CRC32C' | 'SHA256', parts: Buffer[]): Promise<string> {
  const digests = await Promise.all(parts.map(async (part) => Buffer.from(await reference(algorithm, part), 'base64')));
  return `${await reference(algorithm, Buffer.concat(digests))}-${parts.length}`;
}

describe('multipart uploads with a checksum', () => {
  it.each(['CRC32C', 'SHA256'] as const)('%s composite: each part verified and listed; the object has the composite value of the references', async (algorithm) => {
    const Key = `multipart/composite-${algorithm}.bin`;
    const { uploadId, parts } = await startChecksumUpload(Key, algorithm);
    const listed = await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId: uploadId }));
    expect(listed.Parts?.map((part) => part[field(algorithm)])).toEqual(parts.map((part) => part[field(algorithm)]));
    expect(listed.ChecksumAlgorithm).toBe(algorithm);
    const { Uploads } = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: Key }));
    expect(Uploads?.map((upload) => [upload.ChecksumAlgorithm, upload.ChecksumType])).toEqual([[algorithm, 'COMPOSITE']]);

    const expected = await compositeReference(algorithm, MULTIPART_PARTS);
    const done = await s3.send(
      new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId: uploadId, MultipartUpload: { Parts: parts }, [field(algorithm)]: expected }),
    );
    expect(done[field(algorithm)]).toBe(expected);
    expect(done.ChecksumType).toBe('COMPOSITE');
    // S3's multipart ETag: the MD5 of the parts' MD5s joined, `-{parts}`.
    const md5s = Buffer.concat(MULTIPART_PARTS.map((part) => createHash('md5').update(part).digest()));
    expect(done.ETag).toBe(`"${createHash('md5').update(md5s).digest('hex')}-2"`);
    expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key }))).ETag).toBe(done.ETag);
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key, ChecksumMode: 'ENABLED' }));
    expect(head[field(algorithm)]).toBe(expected);
    expect(head.ChecksumType).toBe('COMPOSITE');
    expect(await stored(Key)).toBe(Buffer.concat(MULTIPART_PARTS).toString());
  });

  it.each(['CRC64NVME', 'CRC32C'] as const)('%s full-object: the object has the CRC of its whole bytes; a wrong value at completion is refused, nothing stored', async (algorithm) => {
    const Key = `multipart/full-${algorithm}.bin`;
    const { uploadId, parts } = await startChecksumUpload(Key, algorithm, 'FULL_OBJECT');
    const whole = await reference(algorithm, Buffer.concat(MULTIPART_PARTS));
    const complete = (value: string) =>
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: BUCKET,
          Key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
          ChecksumType: 'FULL_OBJECT',
          [field(algorithm)]: value,
        }),
      );
    const wrong = await reference(algorithm, changed(Buffer.concat(MULTIPART_PARTS)));
    expect(await s3Error(complete(wrong))).toEqual({
      name: 'BadDigest',
      status: 400,
      message: `The ${algorithm.toLowerCase()} you specified did not match the calculated checksum.`,
    });
    expect(await stored(Key)).toBe('NoSuchKey');

    // The upload stays: completed with the right value, the object keeps it.
    const done = await complete(whole);
    expect(done[field(algorithm)]).toBe(whole);
    expect(done.ChecksumType).toBe('FULL_OBJECT');
    const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key, ChecksumMode: 'ENABLED' }));
    expect(head[field(algorithm)]).toBe(whole);
    expect(head.ChecksumType).toBe('FULL_OBJECT');
  });

  it.each(['CRC32C', 'CRC64NVME', 'SHA256'] as const)('%s: a part with a changed byte is refused (BadDigest), stores nothing, and keeps the part stored before', async (algorithm) => {
    const Key = `multipart/changed-part-${algorithm}.bin`;
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ChecksumAlgorithm: algorithm }));
    const data = MULTIPART_PARTS[0]!;
    const value = await reference(algorithm, data);
    const send = (PartNumber: number, Body: Buffer) =>
      s3.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber, Body, [field(algorithm)]: value }));
    expect(await s3Error(send(1, changed(data)))).toEqual({
      name: 'BadDigest',
      status: 400,
      message: `The ${algorithm} you specified did not match the calculated checksum.`,
    });
    expect((await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId }))).Parts ?? []).toEqual([]);

    const { ETag } = await send(1, data);
    expect(await s3Error(send(1, changed(data)))).toMatchObject({ name: 'BadDigest' });
    const listed = await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId }));
    expect(listed.Parts?.map((part) => [part.ETag, part[field(algorithm)]])).toEqual([[ETag, value]]);
    await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId }));
  });

  it('a part of a composite upload must carry its checksum, of the upload algorithm; a full-object one may not (it is computed)', async () => {
    const Key = 'multipart/part-without.bin';
    const composite = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ChecksumAlgorithm: 'CRC32C' }));
    const send = (UploadId: string | undefined, checksum: Partial<UploadPartCommandInput> = {}) =>
      s3.send(new UploadPartCommand({ ...checksum, Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: MULTIPART_PARTS[0] }));
    expect(await s3Error(send(composite.UploadId))).toEqual({
      name: 'InvalidRequest',
      status: 400,
      message: 'Checksum Type mismatch occurred, expected checksum Type: crc32c, actual checksum Type: null',
    });
    expect(await s3Error(send(composite.UploadId, { ChecksumSHA256: await reference('SHA256', MULTIPART_PARTS[0]!) }))).toMatchObject({
      name: 'InvalidRequest',
      message: 'Checksum Type mismatch occurred, expected checksum Type: crc32c, actual checksum Type: sha256',
    });

    const full = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ChecksumAlgorithm: 'CRC64NVME' }));
    const sent = await send(full.UploadId);
    expect(sent.ChecksumCRC64NVME).toBe(await reference('CRC64NVME', MULTIPART_PARTS[0]!));
  });

  it('CompleteMultipartUpload refuses a part listed without its checksum, with another one, or with another ETag', async () => {
    const Key = 'multipart/complete-refusals.bin';
    const { uploadId, parts } = await startChecksumUpload(Key, 'CRC32C');
    const complete = (Parts: CompletedPart[], extra: Partial<CompleteMultipartUploadCommandInput> = {}) =>
      s3Error(s3.send(new CompleteMultipartUploadCommand({ ...extra, Bucket: BUCKET, Key, UploadId: uploadId, MultipartUpload: { Parts } })));
    expect(await complete([{ ...parts[0], ChecksumCRC32C: undefined }, parts[1]!])).toEqual({
      name: 'InvalidRequest',
      status: 400,
      message: 'The upload was created using a crc32c checksum. The complete request must include the checksum for each part. It was missing for part 1 in the request.',
    });
    expect(await complete([parts[0]!, { ...parts[1], ChecksumCRC32C: await reference('CRC32C', MULTIPART_PARTS[0]!) }])).toMatchObject({
      name: 'InvalidPart',
      status: 400,
    });
    expect(await complete([{ ...parts[0], ETag: '"0123456789abcdef0123456789abcdef"' }, parts[1]!])).toMatchObject({ name: 'InvalidPart' });
    expect(await complete([parts[1]!, parts[0]!])).toMatchObject({ name: 'InvalidPartOrder' });
    expect(await complete(parts, { ChecksumCRC32C: await compositeReference('CRC32C', [MULTIPART_PARTS[1]!, MULTIPART_PARTS[0]!]) })).toMatchObject({
      name: 'BadDigest',
      message: 'The crc32c you specified did not match the calculated checksum.',
    });
    expect(await complete(parts, { ChecksumType: 'FULL_OBJECT' })).toMatchObject({ name: 'InvalidRequest' });
    expect(await stored(Key)).toBe('NoSuchKey');
    // Without the optional whole value, with the part values: completed.
    expect(await complete(parts)).toBeUndefined();
  });

  it('CreateMultipartUpload refuses the checksum types S3 does not pair with an algorithm', async () => {
    const create = (input: Partial<CreateMultipartUploadCommandInput>) =>
      s3Error(s3.send(new CreateMultipartUploadCommand({ ...input, Bucket: BUCKET, Key: 'multipart/refused.bin' })));
    expect(await create({ ChecksumAlgorithm: 'CRC64NVME', ChecksumType: 'COMPOSITE' })).toEqual({
      name: 'InvalidRequest',
      status: 400,
      message: 'The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm.',
    });
    expect(await create({ ChecksumAlgorithm: 'SHA256', ChecksumType: 'FULL_OBJECT' })).toMatchObject({
      message: 'The FULL_OBJECT checksum type cannot be used with the sha256 checksum algorithm.',
    });
    expect(await create({ ChecksumType: 'FULL_OBJECT' })).toMatchObject({
      message: 'The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.',
    });
  });

  it('CompleteMultipartUpload with If-None-Match: * is refused 412 when the key holds an object; the upload stays', async () => {
    const Key = 'multipart/once.bin';
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: body('first') }));
    const { uploadId, parts } = await startChecksumUpload(Key, 'CRC64NVME');
    const complete = () =>
      s3.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId: uploadId, MultipartUpload: { Parts: parts }, IfNoneMatch: '*' }));
    expect(await s3Error(complete())).toMatchObject({ name: 'PreconditionFailed', status: 412 });
    expect(await stored(Key)).toBe('first');
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key }));
    await complete();
    expect(await stored(Key)).toBe(Buffer.concat(MULTIPART_PARTS).toString());
  });

  it('a presigned UploadPart URL with the part checksum signed accepts those bytes only', async () => {
    const Key = 'multipart/presigned.bin';
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ChecksumAlgorithm: 'CRC32C' }));
    const data = MULTIPART_PARTS[0]!;
    const headers = { 'x-amz-checksum-crc32c': await reference('CRC32C', data) };
    const url = await presignedPut(Key, headers, {}, { partNumber: '1', uploadId: UploadId! });
    expect((await fetch(url, { method: 'PUT', headers, body: changed(data) })).status).toBe(400);
    const put = await fetch(url, { method: 'PUT', headers, body: data });
    expect(put.status).toBe(200);
    expect(put.headers.get('x-amz-checksum-crc32c')).toBe(headers['x-amz-checksum-crc32c']);
    await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId }));
  });
});
