/// <reference path="./s3rver.d.ts" />
/**
 * What a PutObject, UploadPart or CompleteMultipartUpload asks of the store before its body takes the key's
 * (or the part number's) place: the checksums to verify over the body as it is written, and the conditions
 * (`If-None-Match: *`, `If-Match`) on the object it would replace. The request's middleware reads them from
 * the headers (and the upload's files) and runs s3rver's handler inside {@link writeChecks}; the store
 * (whole-objects.ts) reads them there, as s3rver hands it only the body and the metadata it keeps.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { badDigest, type GivenChecksum, type S3ChecksumAlgorithm } from './checksum-algorithms';
import type { ObjectChecksum } from './checksum-files';
import { S3Error } from './s3rver-internals';

export interface WriteChecks {
  /** The checksum the request gives for the body (or for the whole multipart object): verified over it. */
  given?: GivenChecksum;
  /** How BadDigest names the algorithm: `CRC32C` for a PUT, `crc32c` for a completion (as S3 does). */
  givenName?: string;
  /** The request's `Content-MD5` (base64): verified over the body. */
  contentMd5?: string;
  /** Algorithms computed over the body (the given one's included) and kept with it. */
  compute: S3ChecksumAlgorithm[];
  /** The checksum the object is kept with: its algorithm's value computed over the body, of this type. */
  keep?: { algorithm: S3ChecksumAlgorithm; type: ObjectChecksum['type'] } | { checksum: ObjectChecksum };
  /** `If-None-Match: *`: refused (412) when the key holds an object when the body has arrived. */
  ifNoneMatch?: boolean;
  /** `If-Match`: the ETag (without quotes) the object under the key must have when the body has arrived. */
  ifMatch?: string;
  /**
   * The ETag the object is kept with in place of its body's MD5: a multipart object's, the MD5 of its parts'
   * MD5s joined, then `-{parts}`, as S3 makes it.
   */
  etag?: string;
  /** Set by the store: the values computed over the body, by algorithm (base64). */
  computed?: Partial<Record<S3ChecksumAlgorithm, string>>;
}

/** The checks of the write in progress, set around s3rver's handler by the request's middleware. */
export const writeChecks = new AsyncLocalStorage<WriteChecks>();

/**
 * Throws S3's refusal when what was computed over the body differs from what the request gave:
 * `BadDigest` (400) for the `Content-MD5` ("The Content-MD5 you specified did not match what we received.")
 * and for the `x-amz-checksum-*` value ("The CRC32C you specified did not match the calculated checksum.").
 */
export function verifyBody(checks: WriteChecks | undefined, md5Hex: string, computed: Partial<Record<S3ChecksumAlgorithm, string>>): void {
  if (checks === undefined) return;
  if (checks.contentMd5 !== undefined && Buffer.from(md5Hex, 'hex').toString('base64') !== checks.contentMd5) {
    throw new S3Error('BadDigest', 'The Content-MD5 you specified did not match what we received.', {
      ExpectedDigest: checks.contentMd5,
      CalculatedDigest: Buffer.from(md5Hex, 'hex').toString('base64'),
    });
  }
  const given = checks.given;
  if (given !== undefined && computed[given.algorithm] !== undefined && computed[given.algorithm] !== given.value) {
    throw badDigest(checks.givenName ?? given.algorithm);
  }
}

/**
 * Throws 412 `PreconditionFailed` when the object now under the key (its ETag, undefined when there is
 * none) fails the request's condition: `If-None-Match: *` and an object, `If-Match` and another ETag. An
 * `If-Match` without an object is 404 `NoSuchKey`, as S3 answers.
 */
export function checkConditions(checks: WriteChecks | undefined, currentEtag: string | undefined): void {
  if (checks === undefined) return;
  if (checks.ifNoneMatch && currentEtag !== undefined) {
    throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-None-Match' });
  }
  if (checks.ifMatch !== undefined) {
    if (currentEtag === undefined) throw new S3Error('NoSuchKey', 'The specified key does not exist.');
    if (checks.ifMatch !== '*' && checks.ifMatch !== currentEtag) {
      throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-Match' });
    }
  }
}

/**
 * The conditions of a PutObject or CompleteMultipartUpload from its `If-None-Match` and `If-Match` headers.
 *
 * @throws `NotImplemented` (501) for an `If-None-Match` other than `*`, which S3 does not take on a write.
 */
export function writeConditions(headers: Record<string, string | string[] | undefined>): Pick<WriteChecks, 'ifNoneMatch' | 'ifMatch'> {
  const noneMatch = headers['if-none-match'];
  const match = headers['if-match'];
  if (noneMatch !== undefined && noneMatch !== '*') {
    throw new S3Error('NotImplemented', 'A header you provided implies functionality that is not implemented', { Header: 'If-None-Match' });
  }
  return {
    ifNoneMatch: noneMatch === '*' || undefined,
    ifMatch: typeof match === 'string' ? match.replace(/"/g, '') : undefined,
  };
}
