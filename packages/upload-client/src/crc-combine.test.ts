import { AwsCrc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { describe, expect, it } from 'vitest';
import { bigIntToDigest, combineCrcs, CRC32C, CRC64NVME, type CrcSpec, digestToBigInt } from './crc-combine';

// zlib's crc32_combine method, checked against the AWS SDK's CRCs of the whole concatenation.

const crcs: Record<number, (bytes: Uint8Array) => Promise<bigint>> = {
  32: async (bytes) => {
    const crc = new AwsCrc32c();
    crc.update(bytes);
    return digestToBigInt(await crc.digest());
  },
  64: async (bytes) => {
    const crc = new Crc64Nvme();
    crc.update(bytes);
    return digestToBigInt(await crc.digest());
  },
};

describe.each([
  ['CRC-32C', CRC32C, 0xe3069283n],
  ['CRC-64/NVME', CRC64NVME, 0xae8b14860a799888n],
] as [string, CrcSpec, bigint][])('combineCrcs %s', (_, spec, check) => {
  const crc = crcs[spec.width]!;

  it('the reference gives the check value of "123456789"', async () => {
    expect(await crc(new TextEncoder().encode('123456789'))).toBe(check);
  });

  it('"12345" + "6789" combine to the check value', async () => {
    const [a, b] = [new TextEncoder().encode('12345'), new TextEncoder().encode('6789')];
    expect(combineCrcs(spec, [await crc(a), await crc(b)], [5, 4])).toBe(check);
  });

  it('pieces of equal and odd sizes, and an empty one, combine to the CRC of the whole', async () => {
    const sizes = [65_536, 65_536, 0, 65_536, 1, 12_345];
    const pieces = sizes.map((size, n) => Uint8Array.from({ length: size }, (_, i) => (i * 131 + n * 7) % 256));
    const whole = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
    pieces.reduce((at, piece) => (whole.set(piece, at), at + piece.length), 0);
    const combined = combineCrcs(spec, await Promise.all(pieces.map(crc)), sizes);
    expect(combined).toBe(await crc(whole));
  });

  it('refuses no piece, or unmatched sizes', () => {
    expect(() => combineCrcs(spec, [], [])).toThrow(RangeError);
    expect(() => combineCrcs(spec, [1n], [1, 2])).toThrow(RangeError);
  });
});

it('digests and numbers convert both ways, big-endian', () => {
  expect(bigIntToDigest(0xae8b14860a799888n, 8)).toEqual(Uint8Array.from([0xae, 0x8b, 0x14, 0x86, 0x0a, 0x79, 0x98, 0x88]));
  expect(digestToBigInt(Uint8Array.from([0, 0, 1, 2]))).toBe(0x102n);
});
