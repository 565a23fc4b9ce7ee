import { createHash } from 'node:crypto';
import { CHECKSUM_ALGORITHMS, CHECKSUM_DIGEST_BYTES } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { PROBE_BODY, PROBE_CHECKSUMS, wrongChecksum } from './checksum';

// Bit-at-a-time reflected CRCs, the reference the probe's constants are checked against here (their own check
// values below pin them to CRC-32C and CRC-64/NVME).
function crc(bytes: Uint8Array, polynomial: bigint, width: bigint): bigint {
  const mask = (1n << width) - 1n;
  let value = mask;
  for (const byte of bytes) {
    value ^= BigInt(byte);
    for (let bit = 0; bit < 8; bit++) value = value & 1n ? (value >> 1n) ^ polynomial : value >> 1n;
  }
  return value ^ mask;
}
const crc32c = (bytes: Uint8Array) => crc(bytes, 0x82f63b78n, 32n);
const crc64nvme = (bytes: Uint8Array) => crc(bytes, 0x9a6c9329ac4bc9b5n, 64n);
const base64 = (value: bigint, bytes: number) => Buffer.from(value.toString(16).padStart(bytes * 2, '0'), 'hex').toString('base64');

describe('doctor checksum probe', () => {
  const body = new TextEncoder().encode(PROBE_BODY);

  it('the reference CRCs give the published check values of "123456789"', () => {
    const check = new TextEncoder().encode('123456789');
    expect(crc32c(check).toString(16)).toBe('e3069283');
    expect(crc64nvme(check).toString(16)).toBe('ae8b14860a799888');
  });

  it("PROBE_CHECKSUMS are the probe body's checksums, base64 of the digest (md5 too)", () => {
    expect(PROBE_CHECKSUMS).toEqual({
      crc32c: base64(crc32c(body), 4),
      crc64nvme: base64(crc64nvme(body), 8),
      sha256: createHash('sha256').update(body).digest('base64'),
      md5: createHash('md5').update(body).digest('base64'),
    });
  });

  it('a wrong checksum has the digest length and differs', () => {
    for (const algorithm of CHECKSUM_ALGORITHMS) {
      const wrong = wrongChecksum(PROBE_CHECKSUMS[algorithm]);
      expect(wrong).not.toBe(PROBE_CHECKSUMS[algorithm]);
      expect(Buffer.from(wrong, 'base64')).toHaveLength(CHECKSUM_DIGEST_BYTES[algorithm]);
    }
  });
});
