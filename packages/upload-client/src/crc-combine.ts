/**
 * The CRC of bytes joined end to end, from the CRCs of the pieces and their lengths, without reading the
 * bytes again: how a CRC64NVME multipart upload gets its full-object checksum from its parts' CRCs.
 *
 * The method of zlib's `crc32_combine` (Mark Adler, zlib 1.2.x `crc32.c`, the GF(2) matrix version): a
 * reflected CRC register is a vector over GF(2), and running `n` zero bytes through it is a linear map, a
 * matrix; squaring the map for one zero bit doubles the count, so the map for `n` bytes takes ~log2(8n)
 * squarings. Then, for CRCs whose initial value and final XOR are equal (all ones for CRC-32C and
 * CRC-64/NVME): `crc(A + B) = zeros(len B)(crc(A)) ^ crc(B)`. In BigInt, so that one code serves 32 and 64 bits.
 */

/** A reflected CRC: its width in bits and its polynomial, reflected (the low bit is the x^(width-1) term). */
export interface CrcSpec {
  width: number;
  polynomial: bigint;
}

/** CRC-64/NVME (S3's CRC64NVME): reflected polynomial 0x9a6c9329ac4bc9b5, initial value and final XOR all ones. */
export const CRC64NVME: CrcSpec = { width: 64, polynomial: 0x9a6c9329ac4bc9b5n };

/** CRC-32C (Castagnoli): reflected polynomial 0x82f63b78, initial value and final XOR all ones. */
export const CRC32C: CrcSpec = { width: 32, polynomial: 0x82f63b78n };

/** A linear map of the CRC register: row `i` is the image of the register's bit `i`. */
type Matrix = readonly bigint[];

/** `matrix` applied to `vector`: the XOR of the rows whose bit is set in `vector`. */
function times(matrix: Matrix, vector: bigint): bigint {
  let sum = 0n;
  for (let row = 0; vector !== 0n; row++, vector >>= 1n) if (vector & 1n) sum ^= matrix[row]!;
  return sum;
}

/** The product of `a` by `b` (apply `b`, then `a`). */
const compose = (a: Matrix, b: Matrix): Matrix => b.map((row) => times(a, row));

/** The map of one zero bit through the register: shift right, and XOR the polynomial when bit 0 fell out. */
function oneZeroBit({ width, polynomial }: CrcSpec): Matrix {
  return Array.from({ length: width }, (_, bit) => (bit === 0 ? polynomial : 1n << BigInt(bit - 1)));
}

/** The map of `bytes` zero bytes through the register (the identity for 0), by repeated squaring. */
export function zeroBytes(spec: CrcSpec, bytes: number): Matrix {
  let result: Matrix = Array.from({ length: spec.width }, (_, bit) => 1n << BigInt(bit));
  let power = oneZeroBit(spec);
  for (let bits = BigInt(bytes) * 8n; bits > 0n; bits >>= 1n) {
    if (bits & 1n) result = compose(power, result);
    power = compose(power, power);
  }
  return result;
}

/**
 * The CRC of the pieces joined in order, from each piece's CRC and length in bytes (`crcs[i]` of `sizes[i]`
 * bytes). The map of each distinct length is made once: a multipart upload's parts share one size but the last.
 * @throws RangeError when `crcs` is empty or its length differs from `sizes`'.
 */
export function combineCrcs(spec: CrcSpec, crcs: readonly bigint[], sizes: readonly number[]): bigint {
  if (crcs.length === 0 || crcs.length !== sizes.length) throw new RangeError(`${crcs.length} CRCs for ${sizes.length} sizes`);
  const maps = new Map<number, Matrix>();
  let crc = crcs[0]!;
  for (let index = 1; index < crcs.length; index++) {
    const size = sizes[index]!;
    let map = maps.get(size);
    if (!map) maps.set(size, (map = zeroBytes(spec, size)));
    crc = times(map, crc) ^ crcs[index]!;
  }
  return crc;
}

/** A big-endian digest (S3's byte order for `x-amz-checksum-crc*`) as a number. */
export function digestToBigInt(digest: Uint8Array): bigint {
  return digest.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
}

/** A number as a big-endian digest of `bytes` bytes. */
export function bigIntToDigest(value: bigint, bytes: number): Uint8Array {
  return Uint8Array.from({ length: bytes }, (_, index) => Number((value >> BigInt(8 * (bytes - 1 - index))) & 0xffn));
}
