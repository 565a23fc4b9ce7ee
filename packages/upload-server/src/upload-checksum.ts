/**
 * The handler's side of the checksum contract (`checksum.ts` of `@upbeam/upload-protocol`): what a request's
 * `_upload.checksum` may hold, which algorithm an upload carries (the request's where storage verifies it, else
 * the route's), and the names each algorithm has in the AWS SDK's commands and answers.
 */
import {
  CHECKSUM_ALGORITHMS,
  CHECKSUM_DIGEST_BYTES,
  CHECKSUM_HEADERS,
  MAX_PARTS,
  MULTIPART_CHECKSUM_TYPES,
  type ChecksumAlgorithm,
  type ChecksumRequest,
  type ObjectChecksum,
} from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { ResolvedStorageSettings } from './settings';

/** Whether `value` is one of {@link CHECKSUM_ALGORITHMS}. */
export const isChecksumAlgorithm = (value: unknown): value is ChecksumAlgorithm =>
  typeof value === 'string' && (CHECKSUM_ALGORITHMS as readonly string[]).includes(value);

/** Base64 (with padding) of exactly `bytes` bytes. */
function isBase64Of(value: string, bytes: number): boolean {
  const length = 4 * Math.ceil(bytes / 3);
  const padding = (3 - (bytes % 3)) % 3;
  if (value.length !== length || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  return (value.match(/=+$/)?.[0].length ?? 0) === padding;
}

/** A checksum value's digest and, for a composite one (`{base64}-{N}`), its part count. */
export interface ChecksumValueParts {
  digest: string;
  parts: number | undefined;
}

/**
 * Splits and checks a checksum value: base64 of a digest of the algorithm's length
 * ({@link CHECKSUM_DIGEST_BYTES}), then `-{N}` (1 to 10000 parts) for a composite one.
 * @returns undefined for a value that is not one.
 */
export function checksumValueParts(algorithm: ChecksumAlgorithm, value: string): ChecksumValueParts | undefined {
  const match = /^([^-]+)(?:-([1-9]\d{0,4}))?$/.exec(value);
  if (!match || !isBase64Of(match[1]!, CHECKSUM_DIGEST_BYTES[algorithm])) return undefined;
  const parts = match[2] === undefined ? undefined : Number(match[2]);
  if (parts !== undefined && parts > MAX_PARTS) return undefined;
  return { digest: match[1]!, parts };
}

function invalidChecksum(message: string): UploadError {
  return new UploadError('INVALID_CHECKSUM', message);
}

/**
 * Reads `_upload.checksum` of a request (own properties only): `{ algorithm, value? }`.
 * @throws {@link UploadError} `INVALID_CHECKSUM` (400) for an unknown algorithm, or a value that is not base64
 *   of a digest of the algorithm's length (with `-{N}` for a composite one).
 */
export function readChecksumRequest(raw: unknown): ChecksumRequest {
  const own = (field: string) => (raw !== null && typeof raw === 'object' && Object.hasOwn(raw, field) ? (raw as Record<string, unknown>)[field] : undefined);
  const algorithm = own('algorithm');
  if (!isChecksumAlgorithm(algorithm)) {
    throw invalidChecksum(`"_upload.checksum.algorithm" must be one of: ${CHECKSUM_ALGORITHMS.map((name) => `"${name}"`).join(', ')}.`);
  }
  const value = own('value');
  if (value === undefined) return { algorithm };
  if (typeof value !== 'string' || checksumValueParts(algorithm, value) === undefined) {
    throw invalidChecksum(
      `"_upload.checksum.value" must be base64 of the file's ${algorithm} digest (${CHECKSUM_DIGEST_BYTES[algorithm]} bytes), ` +
        'followed by "-{parts}" for a multipart checksum.',
    );
  }
  return { algorithm, value };
}

/**
 * Reads a part's checksum (`sign-parts` `checksums`, a `complete` part's `checksum`): base64 of a digest of the
 * algorithm's length, never composite.
 */
export function isPartChecksum(algorithm: ChecksumAlgorithm, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const parts = checksumValueParts(algorithm, value);
  return parts !== undefined && parts.parts === undefined;
}

/** The settings the checksum decision reads (`settings.ts`). */
export type ChecksumSettings = Pick<ResolvedStorageSettings, 'checksum' | 'verifiedChecksums'>;

/**
 * The checksum an upload carries: the one the request asked for when its storage verifies it
 * (`verifiedChecksums`; unknown storage verifies whatever is asked), else none asked: the route's (`checksum`).
 * @throws {@link UploadError} `CHECKSUM_UNSUPPORTED` (400, with the route's algorithm in `checksum`) when storage
 *   does not verify the algorithm asked for.
 */
export function effectiveChecksum(settings: ChecksumSettings, asked: ChecksumRequest | undefined): ChecksumRequest | undefined {
  if (asked === undefined) return settings.checksum === undefined ? undefined : { algorithm: settings.checksum };
  const verified = settings.verifiedChecksums;
  if (verified === undefined || verified.includes(asked.algorithm)) return asked;
  const instead = settings.checksum === undefined ? 'no checksum' : `the ${settings.checksum} checksum`;
  throw new UploadError('CHECKSUM_UNSUPPORTED', `This storage does not verify ${asked.algorithm} checksums: send ${instead} instead.`, {
    ...(settings.checksum === undefined ? {} : { checksum: settings.checksum }),
  });
}

/** The words of 400 `CHECKSUM_REQUIRED` for an algorithm. */
export function checksumRequired(algorithm: ChecksumAlgorithm): UploadError {
  return new UploadError(
    'CHECKSUM_REQUIRED',
    `This route needs the file's ${CHECKSUM_NAMES[algorithm]} checksum with the request (it is signed into the upload URL): hash the file and prepare again.`,
    { checksum: algorithm },
  );
}

/** How each algorithm is written in words. */
export const CHECKSUM_NAMES: Readonly<Record<ChecksumAlgorithm, string>> = { crc32c: 'CRC32C', crc64nvme: 'CRC64NVME', sha256: 'SHA-256', md5: 'MD5' };

/**
 * The request header of each algorithm as the answer's `headers` name it (the browser sends exactly these):
 * `Content-MD5` in its usual casing, the `x-amz-*` ones lower case, as the other `x-amz-*` headers there.
 */
export const ANSWER_CHECKSUM_HEADERS: Readonly<Record<ChecksumAlgorithm, string>> = { ...CHECKSUM_HEADERS, md5: 'Content-MD5' };

/** The SDK's field of each algorithm's checksum, in PutObject, UploadPart, CompleteMultipartUpload and HEAD answers. */
export const SDK_CHECKSUM_FIELDS = {
  crc32c: 'ChecksumCRC32C',
  crc64nvme: 'ChecksumCRC64NVME',
  sha256: 'ChecksumSHA256',
  md5: 'ContentMD5',
} as const satisfies Readonly<Record<ChecksumAlgorithm, string>>;

/** S3's `x-amz-checksum-algorithm` value (`ChecksumAlgorithm` of the SDK) of the algorithms that have one. */
export const SDK_CHECKSUM_ALGORITHMS = { crc32c: 'CRC32C', crc64nvme: 'CRC64NVME', sha256: 'SHA256' } as const;

/** The fields of a CreateMultipartUpload of `algorithm`: none for MD5 (its multipart checksum is the ETag). */
export function multipartCreateChecksum(algorithm: ChecksumAlgorithm | undefined): { ChecksumAlgorithm?: 'CRC32C' | 'CRC64NVME' | 'SHA256'; ChecksumType?: 'FULL_OBJECT' | 'COMPOSITE' } {
  if (algorithm === undefined || algorithm === 'md5') return {};
  return { ChecksumAlgorithm: SDK_CHECKSUM_ALGORITHMS[algorithm], ChecksumType: MULTIPART_CHECKSUM_TYPES[algorithm] === 'full-object' ? 'FULL_OBJECT' : 'COMPOSITE' };
}

/** The checksum of `algorithm` a HEAD or CompleteMultipartUpload answer reports (never MD5: that is the ETag). */
export function reportedChecksum(answer: Partial<Record<(typeof SDK_CHECKSUM_FIELDS)[Exclude<ChecksumAlgorithm, 'md5'>], string>>, algorithm: ChecksumAlgorithm): string | undefined {
  return algorithm === 'md5' ? undefined : answer[SDK_CHECKSUM_FIELDS[algorithm]];
}

/** Lowercase hexadecimal of a base64 digest. */
export function hexOfBase64(value: string): string {
  return Array.from(atob(value), (character) => character.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}

/**
 * An object's checksum as `ObjectChecksum` (the wire form): MD5 in lowercase hex, the others base64 as storage
 * reports them; `type` from the value (`-N`: composite).
 */
export function objectChecksum(algorithm: ChecksumAlgorithm, value: string): ObjectChecksum {
  const parts = checksumValueParts(algorithm, value);
  const type = value.includes('-') ? 'composite' : 'full-object';
  if (algorithm !== 'md5' || parts === undefined) return { algorithm, type, value };
  return { algorithm, type, value: parts.parts === undefined ? hexOfBase64(parts.digest) : `${hexOfBase64(parts.digest)}-${parts.parts}` };
}
