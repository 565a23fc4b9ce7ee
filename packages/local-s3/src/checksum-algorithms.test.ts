import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { describe, expect, it } from 'vitest';
import { createDigest, givenChecksum, isDigestBase64, S3_CHECKSUM_ALGORITHMS, type S3ChecksumAlgorithm } from './checksum-algorithms';

// The digests local-s3 verifies bodies with, against the AWS SDK's references (@aws-crypto/crc32c,
// @aws-sdk/crc64-nvme) and Node's own (zlib's CRC-32, node:crypto's SHA), fed in uneven chunks.

const uint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes;
};

async function reference(algorithm: S3ChecksumAlgorithm, data: Buffer): Promise<Buffer> {
  switch (algorithm) {
    case 'CRC32':
      return uint32(crc32(data));
    case 'CRC32C':
      return uint32(crc32c(data));
    case 'CRC64NVME': {
      const crc = new Crc64Nvme();
      crc.update(data);
      return Buffer.from(await crc.digest());
    }
    default:
      return createHash(algorithm.toLowerCase()).update(data).digest();
  }
}

describe('createDigest', () => {
  it.each(S3_CHECKSUM_ALGORITHMS)('%s equals the reference over 0 B, 1 B and 1 MiB + 3 B in uneven chunks', async (algorithm) => {
    for (const data of [Buffer.alloc(0), Buffer.from('x'), randomBytes(1024 * 1024 + 3)]) {
      const digest = await createDigest(algorithm);
      for (let offset = 0; offset < data.length; offset += 65_537) digest.update(data.subarray(offset, offset + 65_537));
      expect(digest.digest().toString('hex')).toBe((await reference(algorithm, data)).toString('hex'));
    }
  });

  it('the check values of "123456789": CRC32C e3069283, CRC64/NVME ae8b14860a799888', async () => {
    const check = async (algorithm: S3ChecksumAlgorithm) => {
      const digest = await createDigest(algorithm);
      digest.update(Buffer.from('123456789'));
      return digest.digest().toString('hex');
    };
    expect(await check('CRC32C')).toBe('e3069283');
    expect(await check('CRC64NVME')).toBe('ae8b14860a799888');
  });
});

describe('values as S3 reads them', () => {
  it('base64 of exactly the digest length, written the one way', () => {
    expect(isDigestBase64('y/Q5Jg==', 4)).toBe(true);
    expect(isDigestBase64('y/Q5Jh==', 4)).toBe(false); // unused bits set
    expect(isDigestBase64('y/Q5Jg', 4)).toBe(false); // padding left out
    expect(isDigestBase64('toolong=', 4)).toBe(false);
    expect(isDigestBase64('^^^^^^==', 4)).toBe(false);
  });

  it('givenChecksum: one value, of a known algorithm, matching x-amz-sdk-checksum-algorithm', () => {
    expect(givenChecksum({ 'x-amz-checksum-crc32c': '4waSgw==' })).toEqual({ algorithm: 'CRC32C', value: '4waSgw==' });
    expect(givenChecksum({ 'x-amz-checksum-mode': 'ENABLED', 'x-amz-checksum-type': 'COMPOSITE' })).toBeUndefined();
    const refusal = (headers: Record<string, string>) => {
      try {
        givenChecksum(headers);
      } catch (error) {
        return (error as Error).message;
      }
      return undefined;
    };
    expect(refusal({ 'x-amz-checksum-crc32c': '4waSgw==', 'x-amz-checksum-crc32': 'y/Q5Jg==' })).toBe(
      'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.',
    );
    expect(refusal({ 'x-amz-checksum-crc32c': '4waSgw==', 'x-amz-sdk-checksum-algorithm': 'SHA256' })).toBe(
      'Value for x-amz-sdk-checksum-algorithm header is invalid.',
    );
    expect(refusal({ 'x-amz-checksum-crc32c': '4waSgw==', 'x-amz-sdk-checksum-algorithm': 'crc32c' })).toBeUndefined();
    expect(refusal({ 'x-amz-sdk-checksum-algorithm': 'CRC32C' })).toBe(
      'x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or x-amz-trailer headers were found.',
    );
    expect(refusal({ 'x-amz-checksum-sha256': '4waSgw==' })).toBe('Value for x-amz-checksum-sha256 header is invalid.');
  });
});
