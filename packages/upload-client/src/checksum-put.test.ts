import { createHash } from 'node:crypto';
import { AwsCrc32c } from '@aws-crypto/crc32c';
import { describe, expect, it } from 'vitest';
import { PartChecksums } from './checksum-parts';
import { partRanges } from './part-math';
import { hashAhead, singlePutChecksum } from './single-put-checksum';

// The single PUT's checksum (header, object checksum, value; hashed once per file and algorithm) and the
// parts' (hashed ahead, the object's checksum from them).

/** A Blob that counts the times it is read (each hash reads it once: `stream()`, or `arrayBuffer()` for WebCrypto). */
class CountedBlob extends Blob {
  reads = 0;
  override stream() {
    this.reads++;
    return super.stream();
  }
  override arrayBuffer() {
    this.reads++;
    return super.arrayBuffer();
  }
}

const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 13) % 256);
const sha256 = createHash('sha256').update(bytes).digest();

describe('singlePutChecksum', () => {
  it('none without an algorithm', async () => {
    expect(await singlePutChecksum(new Blob([bytes]), false)).toEqual({ headers: {}, checksum: undefined });
    expect(await singlePutChecksum(new Blob([bytes]), undefined)).toEqual({ headers: {}, checksum: undefined });
  });

  it('sha256: x-amz-checksum-sha256 in base64, the object checksum, the value to prepare with', async () => {
    const value = sha256.toString('base64');
    expect(await singlePutChecksum(new Blob([bytes]), 'sha256')).toEqual({
      headers: { 'x-amz-checksum-sha256': value },
      checksum: { algorithm: 'sha256', type: 'full-object', value },
      value,
    });
  });

  it('md5: Content-MD5 in base64, the object checksum in hex', async () => {
    const md5 = createHash('md5').update(bytes).digest();
    const hashed = await singlePutChecksum(new Blob([bytes]), 'md5');
    expect(hashed.headers).toEqual({ 'Content-MD5': md5.toString('base64') });
    expect(hashed.checksum).toEqual({ algorithm: 'md5', type: 'full-object', value: md5.toString('hex') });
  });

  it('hashes a file once per algorithm: ahead, then twice asked', async () => {
    const file = new CountedBlob([bytes]);
    hashAhead(file, 'crc32c');
    const [first, second] = await Promise.all([singlePutChecksum(file, 'crc32c'), singlePutChecksum(file, 'crc32c')]);
    expect((await singlePutChecksum(file, 'crc32c')).value).toBe(first.value);
    expect(second).toEqual(first);
    const crc = new AwsCrc32c();
    crc.update(bytes);
    expect(first.value).toBe(Buffer.from(await crc.digest()).toString('base64'));
    expect(file.reads).toBe(1);
    await singlePutChecksum(file, 'sha256');
    expect(file.reads).toBe(2);
  });
});

describe('PartChecksums', () => {
  const parts = partRanges(bytes.length, 30_000);

  it('sha256: each part in base64, the composite of the part digests', async () => {
    const checksums = new PartChecksums(new Blob([bytes]), parts, 2, 'sha256');
    const partSha = parts.map(({ start, end }) => createHash('sha256').update(bytes.subarray(start, end)).digest());
    expect(await checksums.partChecksum(2)).toBe(partSha[1]!.toString('base64'));
    const composite = createHash('sha256').update(Buffer.concat(partSha)).digest('base64');
    expect(await checksums.objectChecksum()).toEqual({ algorithm: 'sha256', type: 'composite', value: `${composite}-3` });
  });

  it('crc64nvme: the object checksum is the whole file CRC (full-object)', async () => {
    const checksums = new PartChecksums(new Blob([bytes]), parts, 1, 'crc64nvme');
    const { Crc64Nvme } = await import('@aws-sdk/crc64-nvme');
    const whole = new Crc64Nvme();
    whole.update(bytes);
    const value = Buffer.from(await whole.digest()).toString('base64');
    expect(await checksums.objectChecksum()).toEqual({ algorithm: 'crc64nvme', type: 'full-object', value });
  });
});
