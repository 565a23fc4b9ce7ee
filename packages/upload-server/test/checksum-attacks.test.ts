import { createHash, randomBytes } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket } from '@upbeam/ceph-rgw';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createUploadHandler, type UploadHandler, type UploadHandlerConfig } from '../src/index';

// Issue 46: a presigned PUT whose checksum and If-None-Match the handler signed into its URL, attacked as curl
// would (Node's fetch with the answer's URL and headers changed), on the embedded local-s3 (SHA-256, CRC32C)
// and a real Ceph radosgw 16.2 (MD5: the one checksum it verifies; If-None-Match on PutObject). Every attack
// must leave storage holding nothing, or the bytes the URL was signed for.

const connection = inject('radosgw');

type Storage = Pick<LocalS3, 'bucket' | 'handlerSettings' | 'createClient' | 'close'>;
const digest = (algorithm: string, bytes: Uint8Array) => createHash(algorithm).update(bytes).digest('base64');
const storages: { name: string; algorithm: 'sha256' | 'crc32c' | 'md5'; other: string; start(): Promise<Storage> }[] = [
  { name: 'local-s3', algorithm: 'sha256', other: 'content-md5', start: () => startLocalS3() },
  { name: 'local-s3', algorithm: 'md5', other: 'x-amz-checksum-sha256', start: () => startLocalS3() },
  ...(connection ? [{ name: 'radosgw', algorithm: 'md5' as const, other: 'x-amz-checksum-sha256', start: () => createTestBucket(connection, 'csattack') }] : []),
];

/** A checksum of `bytes` in the header's form (base64 of the digest). */
function checksumOf(algorithm: string, bytes: Uint8Array): string {
  if (algorithm === 'sha256' || algorithm === 'md5') return digest(algorithm, bytes);
  throw new Error(`no reference for ${algorithm} here`);
}

async function post(handler: UploadHandler, body: object): Promise<{ status: number; body: Record<string, any> }> {
  const response = await handler(new Request('http://127.0.0.1/api/s3-upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function put(url: string, headers: Record<string, string>, body: Uint8Array): Promise<number> {
  const response = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(body) });
  await response.body?.cancel();
  return response.status;
}

describe.each(storages)('a presigned PUT with its $algorithm checksum and If-None-Match signed, attacked ($name)', ({ algorithm, other, start }) => {
  let storage: Storage;
  let admin: S3Client;
  let handler: UploadHandler;
  beforeAll(async () => {
    storage = await start();
    admin = storage.createClient();
    const config: UploadHandlerConfig = { ...storage.handlerSettings, checksum: algorithm, conditionalWrites: true, onUploadComplete: () => ({}), onError: () => {} };
    handler = createUploadHandler(config);
  });
  afterAll(async () => {
    admin?.destroy();
    await storage?.close();
  });

  /** The answer for `bytes`, and a checker of what is stored under its key. */
  async function prepared(bytes: Uint8Array) {
    const answer = await post(handler, {
      filename: 'a.bin',
      filetype: 'application/octet-stream',
      filesize: bytes.length,
      _upload: { strategy: 'presigned', checksum: { algorithm, value: checksumOf(algorithm, bytes) } },
    });
    expect(answer.status).toBe(200);
    const { url, headers, key } = answer.body as { url: string; headers: Record<string, string>; key: string };
    const stored = async () => {
      try {
        return Buffer.from(await (await admin.send(new GetObjectCommand({ Bucket: storage.bucket, Key: key }))).Body!.transformToByteArray());
      } catch {
        return undefined;
      }
    };
    return { url, headers, key, receipt: answer.body.receipt as string, stored };
  }

  const header = algorithm === 'md5' ? 'Content-MD5' : `x-amz-checksum-${algorithm}`;

  it('the answer signs the checksum and If-None-Match: * as headers the browser sends', async () => {
    const { url, headers } = await prepared(randomBytes(64));
    expect(headers).toMatchObject({ [header]: expect.any(String), 'If-None-Match': '*' });
    const signedHeaders = new URL(url).searchParams.get('X-Amz-SignedHeaders')!.split(';');
    expect(signedHeaders).toEqual(expect.arrayContaining([header.toLowerCase(), 'if-none-match']));
  });

  it('other bytes with the same URL and headers are refused by storage (a changed byte, or a replayed URL)', async () => {
    const bytes = randomBytes(64);
    const { url, headers, stored } = await prepared(bytes);
    const changed = Buffer.from(bytes);
    changed[10] = changed[10]! ^ 1;
    expect(await put(url, headers, changed)).toBe(400);
    expect(await stored()).toBeUndefined();
    // The URL used as meant, then replayed with other bytes: refused, the signed bytes stay.
    expect(await put(url, headers, bytes)).toBe(200);
    expect(await put(url, headers, randomBytes(64))).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(bytes);
  });

  it('the checksum header removed, or changed to the checksum of other bytes: refused (the signature binds it)', async () => {
    const bytes = randomBytes(64);
    const { url, headers, stored } = await prepared(bytes);
    const { [header]: _, ...without } = headers;
    expect(await put(url, without, bytes)).toBe(403);
    const others = randomBytes(64);
    expect(await put(url, { ...headers, [header]: checksumOf(algorithm, others) }, others)).toBe(403);
    expect(await stored()).toBeUndefined();
  });

  it("another algorithm's header added, right for other bytes: refused (the signed checksum is still checked)", async () => {
    const { url, headers, stored } = await prepared(randomBytes(64));
    const others = randomBytes(64);
    const added = other === 'content-md5' ? checksumOf('md5', others) : checksumOf('sha256', others);
    expect(await put(url, { ...headers, [other]: added }, others)).toBeGreaterThanOrEqual(400);
    expect(await stored()).toBeUndefined();
  });

  it('If-None-Match: the second PUT of the same URL is refused 412; removing the header breaks the signature', async () => {
    const bytes = randomBytes(64);
    const { url, headers, stored } = await prepared(bytes);
    expect(await put(url, headers, bytes)).toBe(200);
    expect(await put(url, headers, bytes)).toBe(412);
    const { 'If-None-Match': _, ...without } = headers;
    expect(await put(url, without, bytes)).toBe(403);
    expect(await stored()).toEqual(bytes);
  });
});
