import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compositeChecksum, contentMd5, fullObjectChecksum, md5Of } from './checksum';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest();

describe('checksum', () => {
  it('hashes a Blob as a stream: the MD5 node computes, as Content-MD5 base64 and hex', async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31) % 251);
    const digest = await md5Of(new Blob([bytes]));
    expect(contentMd5(digest)).toBe(md5(bytes).toString('base64'));
    expect(fullObjectChecksum(digest)).toEqual({ algorithm: 'md5', type: 'full-object', value: md5(bytes).toString('hex') });
  });

  it('hashes several blobs at once without mixing them (one shared hasher, in turn)', async () => {
    const blobs = [1, 2, 3].map((n) => new Uint8Array(100_000).fill(n));
    const digests = await Promise.all(blobs.map((bytes) => md5Of(new Blob([bytes]))));
    expect(digests.map((digest) => Buffer.from(digest).toString('hex'))).toEqual(blobs.map((bytes) => md5(bytes).toString('hex')));
  });

  it('hashes a blob of several reads with a short last one, and an empty blob, one after the other (one reused buffer)', async () => {
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 + 4099 }, (_, i) => (i * 7) % 253);
    const empty = new Uint8Array(0);
    const [big, none, again] = await Promise.all([md5Of(new Blob([bytes])), md5Of(new Blob([empty])), md5Of(new Blob([bytes.subarray(17)]))]);
    expect(Buffer.from(big).toString('hex')).toBe(md5(bytes).toString('hex'));
    expect(Buffer.from(none).toString('hex')).toBe(md5(empty).toString('hex'));
    expect(Buffer.from(again).toString('hex')).toBe(md5(bytes.subarray(17)).toString('hex'));
  });

  it('composite: MD5 of the part MD5s, "-N" (S3 multipart ETag)', async () => {
    const parts = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])];
    const expected = md5(Buffer.concat(parts.map(md5))).toString('hex');
    const checksum = await compositeChecksum(await Promise.all(parts.map((part) => md5Of(new Blob([part])))));
    expect(checksum).toEqual({ algorithm: 'md5', type: 'composite', value: `${expected}-2` });
  });
});
