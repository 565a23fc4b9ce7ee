/// <reference path="./s3rver.d.ts" />
/**
 * S3's additional checksums (Amazon S3 User Guide, "Checking object integrity"): the algorithms, the header
 * each value travels in, how a value is written (base64 of the digest, big-endian for the CRCs), the digests
 * that compute them over a body as it streams, and the refusals S3 answers for a malformed or contradictory
 * request (their codes and messages as S3 answers them).
 */
import { createHash } from 'node:crypto';
import { createCRC32, createCRC64 } from 'hash-wasm';
import { S3Error } from './s3rver-internals';

/** The algorithms S3 verifies in `x-amz-checksum-*` headers, by S3's name for them. */
export const S3_CHECKSUM_ALGORITHMS = ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as const;
export type S3ChecksumAlgorithm = (typeof S3_CHECKSUM_ALGORITHMS)[number];

/** Digest length of each algorithm, in bytes. */
const DIGEST_BYTES: Readonly<Record<S3ChecksumAlgorithm, number>> = { CRC32: 4, CRC32C: 4, CRC64NVME: 8, SHA1: 20, SHA256: 32 };

/** CRC-32C (Castagnoli), reversed polynomial; hash-wasm's CRC-32 takes it as its one parameter. */
const CRC32C_POLYNOMIAL = 0x82f63b78;
/** CRC-64/NVME, reversed polynomial, as hash-wasm's CRC-64 takes it (hex). */
const CRC64NVME_POLYNOMIAL = '9a6c9329ac4bc9b5';

/** The request and answer header of an algorithm's value, e.g. `x-amz-checksum-crc32c`. */
export const checksumHeader = (algorithm: S3ChecksumAlgorithm) => `x-amz-checksum-${algorithm.toLowerCase()}`;

/** The XML element of an algorithm's value in CompleteMultipartUpload and ListParts, e.g. `ChecksumCRC32C`. */
export const checksumElement = (algorithm: S3ChecksumAlgorithm) => `Checksum${algorithm}` as const;

/** `crc32c` → `CRC32C`; undefined when it names no algorithm S3 verifies. */
export function algorithmNamed(name: string): S3ChecksumAlgorithm | undefined {
  const upper = name.toUpperCase();
  return (S3_CHECKSUM_ALGORITHMS as readonly string[]).includes(upper) ? (upper as S3ChecksumAlgorithm) : undefined;
}

/** A digest fed a body chunk by chunk. */
export interface Digest {
  update(chunk: Uint8Array): void;
  /** The digest's bytes (big-endian for the CRCs, as S3 writes them). */
  digest(): Buffer;
}

/** A new digest of `algorithm` (CRCs in WebAssembly through hash-wasm, SHA and MD5 in node:crypto). */
export async function createDigest(algorithm: S3ChecksumAlgorithm | 'MD5'): Promise<Digest> {
  switch (algorithm) {
    case 'CRC32':
    case 'CRC32C':
    case 'CRC64NVME': {
      const hasher = await (algorithm === 'CRC64NVME'
        ? createCRC64(CRC64NVME_POLYNOMIAL)
        : createCRC32(algorithm === 'CRC32C' ? CRC32C_POLYNOMIAL : undefined));
      hasher.init();
      return { update: (chunk) => void hasher.update(chunk), digest: () => Buffer.from(hasher.digest('binary')) };
    }
    default: {
      const hash = createHash(algorithm === 'MD5' ? 'md5' : algorithm === 'SHA1' ? 'sha1' : 'sha256');
      return { update: (chunk) => void hash.update(chunk), digest: () => hash.digest() };
    }
  }
}

/**
 * True when `value` is base64 of exactly `bytes` bytes, written the one way base64 writes them (padding and
 * unused bits included): S3 refuses `y/Q5Jh==` for the CRC32 `y/Q5Jg==`.
 */
export function isDigestBase64(value: string, bytes: number): boolean {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64');
  return decoded.length === bytes && decoded.toString('base64') === value;
}

/** True when `value` is a checksum of `algorithm` as S3 writes it (base64 of a digest of its length). */
export const isChecksumValue = (algorithm: S3ChecksumAlgorithm, value: string) => isDigestBase64(value, DIGEST_BYTES[algorithm]);

/** 400 `InvalidRequest`, the code of S3's refusals of a malformed checksum request. */
export const invalidRequest = (message: string) => new S3Error('InvalidRequest', message);

/** 400 `InvalidRequest` "Value for {header} header is invalid.", S3's refusal of a malformed value. */
export const invalidValue = (header: string) => invalidRequest(`Value for ${header} header is invalid.`);

/**
 * 400 `BadDigest`, S3's refusal of a body (or a whole multipart object) whose checksum differs from the one
 * given. S3 names the algorithm in capitals for a PUT (`The CRC32C you specified ...`) and in lower case for
 * a CompleteMultipartUpload (`The crc32c you specified ...`).
 */
export const badDigest = (algorithmName: string) =>
  new S3Error('BadDigest', `The ${algorithmName} you specified did not match the calculated checksum.`);

/** A checksum a request gives for its body. */
export interface GivenChecksum {
  algorithm: S3ChecksumAlgorithm;
  value: string;
}

type Headers = Record<string, string | string[] | undefined>;
const headerValue = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/**
 * The `x-amz-checksum-*` value a PutObject or UploadPart (or the object's in CompleteMultipartUpload) gives,
 * checked as S3 checks it; undefined when it gives none.
 *
 * @throws `InvalidRequest` (400) for two values ("Expecting a single x-amz-checksum- header..."), a value
 * that is not base64 of a digest of the algorithm's length ("Value for x-amz-checksum-crc32c header is
 * invalid."), and an `x-amz-sdk-checksum-algorithm` that names another algorithm or has no value beside it.
 */
export function givenChecksum(headers: Headers, options: { multipartValue?: boolean } = {}): GivenChecksum | undefined {
  const given = S3_CHECKSUM_ALGORITHMS.filter((algorithm) => headerValue(headers, checksumHeader(algorithm)) !== undefined);
  if (given.length > 1) throw invalidRequest('Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');
  const algorithm = given[0];
  const sdkAlgorithm = headerValue(headers, 'x-amz-sdk-checksum-algorithm');
  if (sdkAlgorithm !== undefined) {
    if (algorithm === undefined) {
      if (headerValue(headers, 'x-amz-trailer') === undefined) {
        throw invalidRequest('x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or x-amz-trailer headers were found.');
      }
    } else if (algorithmNamed(sdkAlgorithm) !== algorithm) {
      throw invalidValue('x-amz-sdk-checksum-algorithm');
    }
  }
  if (algorithm === undefined) return undefined;
  const value = headerValue(headers, checksumHeader(algorithm))!;
  // CompleteMultipartUpload: a composite value may end in `-{parts}`.
  const digest = options.multipartValue ? value.replace(/-[1-9]\d{0,4}$/, '') : value;
  if (!isChecksumValue(algorithm, digest)) throw invalidValue(checksumHeader(algorithm));
  return { algorithm, value };
}

/**
 * The `Content-MD5` a PutObject or UploadPart gives (base64 of 16 bytes, RFC 1864); undefined when none.
 *
 * @throws `InvalidDigest` (400) "The Content-MD5 you specified was invalid." for anything else.
 */
export function givenContentMd5(headers: Headers): string | undefined {
  const value = headerValue(headers, 'content-md5');
  if (value === undefined) return undefined;
  if (!isDigestBase64(value, 16)) throw new S3Error('InvalidDigest', 'The Content-MD5 you specified was invalid.');
  return value;
}
