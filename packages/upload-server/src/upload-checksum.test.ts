import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMultipartTickets } from './multipart-upload';
import { contentObjectKey } from './object-key';
import { createPartPresigner } from './part-presign';
import { assertValidRoutes, publicRules } from './routes';
import { resolveStorageSettings } from './settings';
import { createStorageClient } from './storage-client';
import { createTickets } from './ticket';
import { checksumValueParts, effectiveChecksum, objectChecksum, readChecksumRequest } from './upload-checksum';
import { readMarker } from './upload-marker';
import { createReceipts } from './upload-receipt';

// The handler's rules of the checksum contract (issue 46), each on its own: what `_upload.checksum` may hold,
// which algorithm an upload carries, what tickets and receipts bind, content-addressed keys and routes.

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const md5 = (text: string) => createHash('md5').update(text).digest('base64');

describe('_upload.checksum', () => {
  it('takes each algorithm with base64 of its digest length, and a composite value with -N', () => {
    expect(readChecksumRequest({ algorithm: 'crc32c', value: 'yZRlqg==' })).toEqual({ algorithm: 'crc32c', value: 'yZRlqg==' });
    expect(readChecksumRequest({ algorithm: 'crc64nvme', value: 'rosUhgp5mIg=' })).toEqual({ algorithm: 'crc64nvme', value: 'rosUhgp5mIg=' });
    expect(readChecksumRequest({ algorithm: 'sha256', value: `${sha256('a')}-3` }).value).toBe(`${sha256('a')}-3`);
    expect(readChecksumRequest({ algorithm: 'md5', value: md5('a') }).value).toBe(md5('a'));
    expect(readChecksumRequest({ algorithm: 'sha256' })).toEqual({ algorithm: 'sha256' });
    expect(checksumValueParts('sha256', `${sha256('a')}-10000`)?.parts).toBe(10000);
  });

  it.each([
    ['an unknown algorithm', { algorithm: 'crc32' }],
    ['no algorithm', { value: 'yZRlqg==' }],
    ['a digest of another length', { algorithm: 'crc32c', value: 'rosUhgp5mIg=' }],
    ["another algorithm's digest", { algorithm: 'sha256', value: md5('a') }],
    ['not base64', { algorithm: 'crc32c', value: 'yZR!qg==' }],
    ['wrong padding', { algorithm: 'crc32c', value: 'yZRlqgA=' }],
    ['a value that is no string', { algorithm: 'crc32c', value: 42 }],
    ['more than 10000 parts', { algorithm: 'sha256', value: `${sha256('a')}-10001` }],
    ['zero parts', { algorithm: 'sha256', value: `${sha256('a')}-0` }],
  ])('refuses %s with 400 INVALID_CHECKSUM', (_, checksum) => {
    expect(() => readChecksumRequest(checksum)).toThrow(expect.objectContaining({ code: 'INVALID_CHECKSUM', status: 400 }));
    expect(() => readMarker({ _upload: { strategy: 'presigned', checksum } })).toThrow(expect.objectContaining({ code: 'INVALID_CHECKSUM' }));
  });

  it('is read with a preparation and a multipart operation; sign-parts checksums are one per part number', () => {
    const checksum = { algorithm: 'crc32c', value: 'yZRlqg==' };
    expect(readMarker({ _upload: { strategy: 'temporary-token', checksum } })).toEqual({ strategy: 'temporary-token', checksum });
    const signParts = { action: 'sign-parts', ticket: 't.x', partNumbers: [1, 2], checksums: ['yZRlqg==', 'AAAAAA=='] };
    expect(readMarker({ _upload: { strategy: 'presigned', multipart: signParts } })).toMatchObject({ multipart: signParts });
    const short = { ...signParts, checksums: ['yZRlqg=='] };
    expect(() => readMarker({ _upload: { strategy: 'presigned', multipart: short } })).toThrow(expect.objectContaining({ code: 'INVALID_CHECKSUM' }));
    const parts = [{ partNumber: 1, etag: '"e"', checksum: 'yZRlqg==' }];
    expect(readMarker({ _upload: { strategy: 'presigned', multipart: { action: 'complete', ticket: 't.x', parts, checksum: 'rosUhgp5mIg=' } } })).toMatchObject({
      multipart: { parts, checksum: 'rosUhgp5mIg=' },
    });
  });
});

describe('the algorithm an upload carries', () => {
  const aws = { checksum: 'crc64nvme' as const, verifiedChecksums: ['crc32c', 'crc64nvme', 'sha256', 'md5'] as const };
  const radosgw = { checksum: 'md5' as const, verifiedChecksums: ['md5'] as const };

  it("is the request's where storage verifies it, else the route's when none is asked", () => {
    expect(effectiveChecksum(aws, { algorithm: 'sha256' })).toEqual({ algorithm: 'sha256' });
    expect(effectiveChecksum(aws, undefined)).toEqual({ algorithm: 'crc64nvme' });
    expect(effectiveChecksum({ checksum: undefined, verifiedChecksums: [] }, undefined)).toBeUndefined();
  });

  it("on unknown storage (verifiedChecksums undefined) is whatever the request asks", () => {
    expect(effectiveChecksum({ checksum: undefined, verifiedChecksums: undefined }, { algorithm: 'crc32c', value: 'yZRlqg==' })).toEqual({
      algorithm: 'crc32c',
      value: 'yZRlqg==',
    });
  });

  it("is refused 400 CHECKSUM_UNSUPPORTED, naming the route's algorithm, where storage does not verify it", () => {
    expect(() => effectiveChecksum(radosgw, { algorithm: 'crc32c' })).toThrow(expect.objectContaining({ code: 'CHECKSUM_UNSUPPORTED', status: 400, checksum: 'md5' }));
    expect(() => effectiveChecksum({ checksum: undefined, verifiedChecksums: [] }, { algorithm: 'sha256' })).toThrow(
      expect.objectContaining({ code: 'CHECKSUM_UNSUPPORTED', checksum: undefined }),
    );
  });

  it('is reported as ObjectChecksum: MD5 in hex (the ETag form), the others in base64 as storage reports them', () => {
    expect(objectChecksum('md5', md5('abc'))).toEqual({ algorithm: 'md5', type: 'full-object', value: createHash('md5').update('abc').digest('hex') });
    expect(objectChecksum('sha256', `${sha256('a')}-2`)).toEqual({ algorithm: 'sha256', type: 'composite', value: `${sha256('a')}-2` });
    expect(objectChecksum('crc64nvme', 'rosUhgp5mIg=')).toEqual({ algorithm: 'crc64nvme', type: 'full-object', value: 'rosUhgp5mIg=' });
  });
});

describe('a part URL', () => {
  it("signs the part's checksum as a header (not hoisted into the query) and returns it in the part's headers", async () => {
    const settings = resolveStorageSettings({ accessKeyId: 'AKID', secretAccessKey: 'SECRET', bucket: 'b', region: 'eu-west-1' }, {});
    const sign = createPartPresigner(settings, () => createStorageClient(settings));
    const part = await sign({ key: 'k', uploadId: 'u', partNumber: 1, contentLength: 5, expiresIn: 60, checksum: { algorithm: 'crc32c', value: 'yZRlqg==' } });
    const url = new URL(part.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host;x-amz-checksum-crc32c');
    expect(url.searchParams.has('x-amz-checksum-crc32c')).toBe(false);
    expect(part.headers).toEqual({ 'x-amz-checksum-crc32c': 'yZRlqg==' });
    const md5Part = await sign({ key: 'k', uploadId: 'u', partNumber: 2, contentLength: 5, expiresIn: 60, checksum: { algorithm: 'md5', value: md5('a') } });
    expect(md5Part.headers).toEqual({ 'Content-MD5': md5('a') });
    expect(new URL(md5Part.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-md5;host');
  });
});

describe('receipts and tickets', () => {
  const receipts = createReceipts('SECRET', { scope: 's' });

  it('a receipt binds the signed checksum and the deduplicated mark: a changed, added or removed one is refused', async () => {
    const checksum = { algorithm: 'sha256' as const, value: sha256('a') };
    const receipt = await receipts.issue('k', undefined, '{"u":1}', 10, { checksum, deduplicated: true });
    expect(await receipts.open('k', receipt)).toEqual({ context: '{"u":1}', size: 10, checksum, deduplicated: true });
    const [first, ...rest] = receipt.split('.');
    const forged = (part: string) => [part, ...rest].join('.');
    await expect(receipts.open('k', forged(first!.replace(checksum.value, sha256('b'))))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(receipts.open('k', forged(first!.replace('_d', '')))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(receipts.open('k', forged(first!.replace(`_sha256_${checksum.value}`, '')))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    // A receipt of before checksums reads as one without.
    expect(await receipts.open('k', await receipts.issue('k'))).toEqual({ context: undefined, size: undefined });
  });

  it("a multipart ticket binds the upload's algorithm; a ticket of before checksums is read as one without", async () => {
    const tickets = createMultipartTickets('SECRET', { scope: 's' });
    const fields = { bucket: 'b', key: 'k', uploadId: 'u', contentType: 't', filesize: 10, partSize: 5, partCount: 2 };
    const { ticket } = await tickets.issue({ ...fields, checksum: 'crc32c' });
    expect(await tickets.verify(ticket)).toMatchObject({ checksum: 'crc32c' });
    expect(await tickets.verify((await tickets.issue(fields)).ticket)).not.toHaveProperty('checksum');
    // Written by this server's key with an algorithm it does not know: refused (defence in depth).
    const raw = createTickets('SECRET', 'multipart', (read) => read, { scope: 's' });
    await expect(tickets.verify((await raw.issue({ ...fields, checksum: 'crc32' })).ticket)).rejects.toMatchObject({ code: 'INVALID_TICKET' });
  });
});

describe('content-addressed routes', () => {
  it('name a key {prefix}sha256/{hex} with the lower-cased extension; a composite keeps its -N', () => {
    const hex = createHash('sha256').update('a').digest('hex');
    expect(contentObjectKey(sha256('a'), 'Cat.JPG', 'u')).toBe(`u/sha256/${hex}.jpg`);
    expect(contentObjectKey(`${sha256('a')}-3`, 'video.mp4', 'u/')).toBe(`u/sha256/${hex}-3.mp4`);
    expect(contentObjectKey(sha256('a'), 'README', 'u/')).toBe(`u/sha256/${hex}`);
    expect(contentObjectKey(sha256('a'), 'a.b c', 'u/')).toBe(`u/sha256/${hex}`);
  });

  it("are refused at creation with another checksum or the temporary-token strategy; their rules list presigned only", () => {
    expect(() => assertValidRoutes({ images: { contentAddressed: true, checksum: 'crc32c' } })).toThrow(expect.objectContaining({ code: 'INVALID_SETTINGS' }));
    expect(() => assertValidRoutes({ images: { contentAddressed: true, strategies: ['temporary-token'] } })).toThrow(
      expect.objectContaining({ code: 'INVALID_SETTINGS' }),
    );
    expect(() => assertValidRoutes({ images: { contentAddressed: true, checksum: 'sha256' } })).not.toThrow();
    expect(publicRules({ contentAddressed: true }).strategies).toEqual(['presigned']);
  });
});
