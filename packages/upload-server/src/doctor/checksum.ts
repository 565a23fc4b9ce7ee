import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { CHECKSUM_ALGORITHMS, CHECKSUM_HEADERS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { defaultChecksum } from '../providers';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/** The bytes the checksum probes send. */
export const PROBE_BODY = 'upbeam doctor: checksum probe\n';

/**
 * {@link PROBE_BODY}'s checksums, base64 of the digest, as storage checks them (`checksum.test.ts` recomputes
 * them): constants, so that the doctor needs no CRC code of its own.
 */
export const PROBE_CHECKSUMS: Readonly<Record<ChecksumAlgorithm, string>> = {
  crc32c: 'XL9fVA==',
  crc64nvme: 'jGj1ffXplQc=',
  sha256: 'XKoU8XLJgme//0iW7jcObCGXEBDooZUnkTGnPI6aXic=',
  md5: 'GPMmTuEJOwliEALFv7Dkbw==',
};

/** A checksum of the same length that does not match: every bit of the first byte flipped. */
export function wrongChecksum(value: string): string {
  const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  bytes[0] = bytes[0]! ^ 0xff;
  return btoa(String.fromCharCode(...bytes));
}

/** What storage did with one algorithm's probes. */
export type ChecksumVerdict =
  /** Took the right value, refused the wrong one: verified. */
  | { algorithm: ChecksumAlgorithm; outcome: 'verified'; status: number | undefined; error: string }
  /** Took the wrong value too: the header is ignored (the probe was deleted). */
  | { algorithm: ChecksumAlgorithm; outcome: 'ignored' }
  /** Refused the right value: every upload with this checksum would fail. */
  | { algorithm: ChecksumAlgorithm; outcome: 'refused'; status: number | undefined; error: string }
  /** Something else went wrong (permissions, network): not known. */
  | { algorithm: ChecksumAlgorithm; outcome: 'unknown'; status: number | undefined; error: string };

/** The SDK's PutObject field of each algorithm's header (signed, as every header the SDK sends). */
const PUT_FIELD = {
  crc32c: 'ChecksumCRC32C',
  crc64nvme: 'ChecksumCRC64NVME',
  sha256: 'ChecksumSHA256',
  md5: 'ContentMD5',
} as const satisfies Record<ChecksumAlgorithm, keyof PutObjectCommandInput>;

/** Error names storage answers a body that does not match its checksum with (S3, R2, MinIO, radosgw). */
const CHECKSUM_ERRORS = new Set(['BadDigest', 'InvalidDigest', 'XAmzContentChecksumMismatch', 'InvalidRequest', 'InvalidArgument']);

/**
 * Deletes what the probes stored: each version by its id (a versioned bucket, object lock included, then keeps
 * no version and no delete marker), and the key itself where a write named no version (an unversioned bucket).
 */
async function removeWritten({ settings, s3 }: CheckContext, key: string, versions: (string | undefined)[]): Promise<void> {
  const ids = [...new Set(versions.filter((id): id is string => id !== undefined))];
  const targets: (string | undefined)[] = ids.length < versions.length ? [...ids, undefined] : ids;
  for (const VersionId of targets) {
    await s3.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key, ...(VersionId === undefined ? {} : { VersionId }) })).catch(() => undefined);
  }
}

/**
 * Puts {@link PROBE_BODY} with the right checksum of `algorithm`, then with a wrong one (both signed), at
 * `key`, and deletes what was stored (each version, on a versioned bucket). Two PUTs and a DELETE per version.
 */
export async function probeChecksum(context: CheckContext, algorithm: ChecksumAlgorithm, key: string): Promise<ChecksumVerdict> {
  const { settings, s3 } = context;
  const put = async (value: string) =>
    (await s3.send(new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: PROBE_BODY, ContentType: 'text/plain', [PUT_FIELD[algorithm]]: value })))
      .VersionId;
  const stored: (string | undefined)[] = [];
  try {
    try {
      stored.push(await put(PROBE_CHECKSUMS[algorithm]));
    } catch (error) {
      const status = httpStatus(error);
      const outcome = status === 400 || status === 501 ? 'refused' : 'unknown';
      return { algorithm, outcome, status, error: errorName(error) };
    }
    try {
      stored.push(await put(wrongChecksum(PROBE_CHECKSUMS[algorithm])));
      return { algorithm, outcome: 'ignored' };
    } catch (error) {
      const status = httpStatus(error);
      const name = errorName(error);
      const outcome = status === 400 && CHECKSUM_ERRORS.has(name) ? 'verified' : 'unknown';
      return { algorithm, outcome, status, error: name };
    }
  } finally {
    if (stored.length > 0) await removeWritten(context, key, stored);
  }
}

const describeVerdict = (verdict: ChecksumVerdict): string => {
  const header = CHECKSUM_HEADERS[verdict.algorithm];
  switch (verdict.outcome) {
    case 'verified':
      return `${verdict.algorithm}: verified (a wrong ${header} refused, ${verdict.status} ${verdict.error})`;
    case 'ignored':
      return `${verdict.algorithm}: ignored (a wrong ${header} was stored)`;
    case 'refused':
      return `${verdict.algorithm}: refused (the right ${header} answered ${verdict.status ?? 'no status'} ${verdict.error})`;
    default:
      return `${verdict.algorithm}: not known (${verdict.status ?? 'no status'} ${verdict.error})`;
  }
};

const setting = (algorithm: ChecksumAlgorithm | false) => (algorithm === false ? 'checksum: false (S3_UPLOAD_CHECKSUM=off)' : `checksum: '${algorithm}' (S3_UPLOAD_CHECKSUM=${algorithm})`);

/**
 * Does storage verify the checksums browsers send? For each algorithm ({@link CHECKSUM_ALGORITHMS}) a small
 * object under `keyPrefix` is put with the right checksum and then with a wrong one ({@link probeChecksum}):
 * storage must take the first and refuse the second. `ok` when the configured `checksum` is verified (or is off
 * and storage verifies none); `fail` when storage ignores it (it stores bytes that do not match, so the setting
 * guards nothing) or refuses its header (every upload would fail), with the setting to use instead: the
 * strongest cheap one storage verified (`crc64nvme`, else `crc32c`, else `md5`, else off); `warn` when
 * `checksum` is off but storage verifies one, or when the provider preset lists an algorithm (a client may ask
 * for it) that storage does not verify. Takes 8 small PUTs and up to 4 DELETEs.
 */
export async function checkChecksums(context: CheckContext, keyPrefix: string): Promise<Finding> {
  const check = 'checksum';
  const { settings } = context;
  const key = `${keyPrefix}upbeam-doctor-checksum-${Date.now().toString(36)}`;
  const verdicts: ChecksumVerdict[] = [];
  for (const algorithm of CHECKSUM_ALGORITHMS) verdicts.push(await probeChecksum(context, algorithm, key));
  const verified = verdicts.filter((verdict) => verdict.outcome === 'verified').map((verdict) => verdict.algorithm);
  const best = defaultChecksum(verified);
  const found = `Storage: ${verdicts.map(describeVerdict).join('; ')}.`;
  const configured = settings.checksum;
  if (configured !== undefined) {
    const verdict = verdicts.find((one) => one.algorithm === configured)!;
    if (verdict.outcome === 'ignored' || verdict.outcome === 'refused') {
      const what = verdict.outcome === 'ignored' ? `ignores ${configured} (it stores bytes that do not match, so the setting guards nothing)` : `refuses ${CHECKSUM_HEADERS[configured]} (every upload would fail)`;
      return { check, status: 'fail', message: `Storage ${what}. ${found}`, fix: { apply: `Set ${setting(best)}.` } };
    }
    if (verdict.outcome === 'unknown') return { check, status: 'warn', message: `Could not tell whether storage verifies ${configured}. ${found}` };
  } else if (best !== false) {
    return { check, status: 'warn', message: `Checksums are off, but storage verifies ${verified.join(', ')}. ${found}`, fix: { apply: `Set ${setting(best)}.` } };
  }
  const unverified = (settings.verifiedChecksums ?? []).filter((algorithm) => !verified.includes(algorithm));
  if (unverified.length > 0) {
    return {
      check,
      status: 'warn',
      message: `The provider preset lists ${unverified.join(', ')} as verified (the handler accepts a client that asks for it), but storage does not verify it. ${found}`,
    };
  }
  const now = configured === undefined ? 'checksums are off and storage verifies none' : `${configured} is verified`;
  return { check, status: 'ok', message: `The checksum setting is right: ${now}. ${found}` };
}

/** What storage did with `If-None-Match: *` on one write to a key that holds an object. */
export type ConditionalVerdict = { outcome: 'refused' | 'overwrote' | 'error'; status: number | undefined; error?: string };

/**
 * No overwrites: a PutObject of a small object under `keyPrefix`, a second PutObject with `If-None-Match: *`
 * (storage must answer 412), then a multipart upload of the same key (one small part) completed with
 * `If-None-Match: *` (412 again; the upload is aborted), and every version written deleted. 7 requests or more.
 */
export async function probeConditionalWrites(context: CheckContext, key: string): Promise<{ put: ConditionalVerdict; complete: ConditionalVerdict }> {
  const { settings, s3 } = context;
  const Bucket = settings.bucket;
  const stored: (string | undefined)[] = [];
  const verdict = async (write: () => Promise<{ VersionId?: string | undefined }>): Promise<ConditionalVerdict> => {
    try {
      stored.push((await write()).VersionId);
      return { outcome: 'overwrote', status: 200 };
    } catch (error) {
      const status = httpStatus(error);
      return { outcome: status === 412 ? 'refused' : 'error', status, error: errorName(error) };
    }
  };
  stored.push((await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: PROBE_BODY, ContentType: 'text/plain' }))).VersionId);
  try {
    const put = await verdict(() => s3.send(new PutObjectCommand({ Bucket, Key: key, Body: PROBE_BODY, ContentType: 'text/plain', IfNoneMatch: '*' })));
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: 'text/plain' }));
    let complete: ConditionalVerdict;
    try {
      const { ETag } = await s3.send(new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber: 1, Body: PROBE_BODY }));
      complete = await verdict(() =>
        s3.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, IfNoneMatch: '*', MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } })),
      );
    } finally {
      await s3.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => undefined);
    }
    return { put, complete };
  } finally {
    await removeWritten(context, key, stored);
  }
}

const describeConditional = (operation: string, verdict: ConditionalVerdict) =>
  verdict.outcome === 'refused'
    ? `${operation} with If-None-Match: * answered 412`
    : verdict.outcome === 'overwrote'
      ? `${operation} with If-None-Match: * overwrote the object`
      : `${operation} with If-None-Match: * answered ${verdict.status ?? 'no status'} ${verdict.error}`;

/**
 * Does storage refuse an overwrite ({@link probeConditionalWrites})? With `conditionalWrites` on: `ok` when
 * both writes answered 412; `fail` when either answered another error (every upload's write would fail:
 * `conditionalWrites: false` is the fix) or PutObject overwrote the object (the setting guards nothing);
 * `warn` when PutObject answered 412 but CompleteMultipartUpload overwrote (radosgw 16.2, measured: single PUTs
 * are written once, multipart uploads may still overwrite). With it off: `ok`, or a `warn` recommending it
 * where storage refused the PutObject's overwrite.
 */
export async function checkConditionalWrites(context: CheckContext, keyPrefix: string): Promise<Finding> {
  const check = 'conditional-writes';
  let put: ConditionalVerdict;
  let complete: ConditionalVerdict;
  try {
    ({ put, complete } = await probeConditionalWrites(context, `${keyPrefix}upbeam-doctor-conditional-${Date.now().toString(36)}`));
  } catch (error) {
    return {
      check,
      status: 'warn',
      message: `Could not try a write with If-None-Match: * (${httpStatus(error) ?? 'no status'} ${errorName(error)}): the check needs s3:PutObject, s3:AbortMultipartUpload and s3:DeleteObject under "${keyPrefix}".`,
    };
  }
  const found = `${describeConditional('PutObject', put)}; ${describeConditional('CompleteMultipartUpload', complete)}.`;
  const partly = complete.outcome === 'overwrote' ? ' (single PUTs only: a multipart upload may still overwrite)' : '';
  if (!context.settings.conditionalWrites) {
    return put.outcome === 'refused' && complete.outcome !== 'error'
      ? {
          check,
          status: 'warn',
          message: `Conditional writes are off, but storage refuses overwrites${partly}: ${found}`,
          fix: { apply: 'Set conditionalWrites: true (S3_UPLOAD_CONDITIONAL_WRITES=true): a key is then written once.' },
        }
      : { check, status: 'ok', message: `Conditional writes are off, and storage does not honour them: ${found}` };
  }
  if (put.outcome === 'error' || complete.outcome === 'error') {
    return {
      check,
      status: 'fail',
      message: `Storage refuses If-None-Match on a write (every such upload would fail): ${found}`,
      fix: { apply: 'Set conditionalWrites: false (S3_UPLOAD_CONDITIONAL_WRITES=false).' },
    };
  }
  if (put.outcome === 'overwrote') {
    return {
      check,
      status: 'fail',
      message: `Storage ignores If-None-Match: * (conditional writes are on but guard nothing): ${found}`,
      fix: { apply: 'Set conditionalWrites: false (S3_UPLOAD_CONDITIONAL_WRITES=false).' },
    };
  }
  if (complete.outcome === 'overwrote') return { check, status: 'warn', message: `Storage refuses overwrites${partly}: ${found}` };
  return { check, status: 'ok', message: `Storage refuses overwrites: ${found}` };
}
