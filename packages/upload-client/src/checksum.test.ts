import { createHash } from 'node:crypto';
import { AwsCrc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import { CHECKSUM_ALGORITHMS, CHECKSUM_DIGEST_BYTES, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { describe, expect, it } from 'vitest';
import { checksumValue, digestOf, fullObjectChecksum, md5Of, multipartChecksum } from './checksum';
import { READ_SIZE, SUBTLE_MAX_BYTES } from './hash-blob';

// The hashes of `checksum.ts` (hash-wasm; in Node there is no Worker: on the main thread) against the
// references: the AWS SDK's own CRC32C and CRC64NVME, node:crypto's SHA-256 and MD5.

/** The reference digest of `bytes`, big-endian as S3's headers carry it. */
async function reference(algorithm: ChecksumAlgorithm, bytes: Uint8Array): Promise<Uint8Array> {
  if (algorithm === 'sha256' || algorithm === 'md5') return createHash(algorithm).update(bytes).digest();
  const crc = algorithm === 'crc32c' ? new AwsCrc32c() : new Crc64Nvme();
  crc.update(bytes);
  return crc.digest();
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const pattern = (length: number, seed = 0) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 251);

/** Empty, one byte, and around the 1 MiB read boundary (one short of it, on it, one past it, several reads and a short last one). */
const SIZES = [0, 1, READ_SIZE - 1, READ_SIZE, READ_SIZE + 1, 3 * READ_SIZE + 4099];

it("sha256: WebCrypto's up to SUBTLE_MAX_BYTES, hash-wasm's beyond, both node:crypto's", async () => {
  for (const size of [SUBTLE_MAX_BYTES, SUBTLE_MAX_BYTES + 1]) {
    const bytes = pattern(size);
    expect(hex(await digestOf(new Blob([bytes]), 'sha256'))).toBe(hex(await reference('sha256', bytes)));
  }
});

describe.each(CHECKSUM_ALGORITHMS)('checksum %s', (algorithm) => {
  it.each(SIZES)('digests %i bytes as the reference does', async (size) => {
    const bytes = pattern(size);
    const digest = await digestOf(new Blob([bytes]), algorithm);
    expect(digest).toHaveLength(CHECKSUM_DIGEST_BYTES[algorithm]);
    expect(hex(digest)).toBe(hex(await reference(algorithm, bytes)));
  });

  it('a full-object checksum: base64 (md5: hex, the ETag form); the header value base64', async () => {
    const bytes = pattern(5000);
    const expected = await reference(algorithm, bytes);
    const digest = await digestOf(new Blob([bytes]), algorithm);
    expect(checksumValue(digest)).toBe(b64(expected));
    const value = algorithm === 'md5' ? hex(expected) : b64(expected);
    expect(fullObjectChecksum(algorithm, digest)).toEqual({ algorithm, type: 'full-object', value });
  });

  it('hashes several blobs asked at once without mixing them (one hasher, in turn)', async () => {
    const blobs = [1, 2, 3].map((seed) => pattern(100_000 + seed, seed));
    const digests = await Promise.all(blobs.map((bytes) => digestOf(new Blob([bytes]), algorithm)));
    expect(digests.map(hex)).toEqual(await Promise.all(blobs.map(async (bytes) => hex(await reference(algorithm, bytes)))));
  });
});

describe('multipartChecksum', () => {
  const partSizes = [READ_SIZE + 7, READ_SIZE + 7, 1234];
  const parts = partSizes.map((size, index) => pattern(size, index));
  const whole = Buffer.concat(parts);

  it.each(['crc32c', 'sha256', 'md5'] as const)('%s: composite, the digest of the part digests joined, "-N"', async (algorithm) => {
    const digests = await Promise.all(parts.map((part) => digestOf(new Blob([part]), algorithm)));
    const expected = await reference(algorithm, Buffer.concat(await Promise.all(parts.map((part) => reference(algorithm, part)))));
    const value = `${algorithm === 'md5' ? hex(expected) : b64(expected)}-3`;
    expect(await multipartChecksum(algorithm, digests, partSizes)).toEqual({ algorithm, type: 'composite', value });
  });

  it('crc64nvme: full-object, the CRC64NVME of the whole object, combined from the part CRCs', async () => {
    const digests = await Promise.all(parts.map((part) => digestOf(new Blob([part]), 'crc64nvme')));
    const expected = { algorithm: 'crc64nvme', type: 'full-object', value: b64(await reference('crc64nvme', whole)) };
    expect(await multipartChecksum('crc64nvme', digests, partSizes)).toEqual(expected);
  });

  it('crc64nvme: one part is its own CRC; an empty last part changes nothing', async () => {
    const [first] = parts;
    const digest = await digestOf(new Blob([first!]), 'crc64nvme');
    const empty = await digestOf(new Blob([]), 'crc64nvme');
    const value = b64(await reference('crc64nvme', first!));
    expect((await multipartChecksum('crc64nvme', [digest], [first!.length])).value).toBe(value);
    expect((await multipartChecksum('crc64nvme', [digest, empty], [first!.length, 0])).value).toBe(value);
  });

  it('refuses no part, or sizes that do not match the digests', async () => {
    await expect(multipartChecksum('sha256', [], [])).rejects.toThrow(RangeError);
    await expect(multipartChecksum('crc64nvme', [new Uint8Array(8)], [1, 2])).rejects.toThrow(RangeError);
  });
});

describe('md5Of (kept for its callers)', () => {
  it('is digestOf(blob, "md5")', async () => {
    const bytes = pattern(777);
    expect(hex(await md5Of(new Blob([bytes])))).toBe(hex(createHash('md5').update(bytes).digest()));
  });
});
