import type { S3Client } from '@aws-sdk/client-s3';
import { statusOf } from './completion-marker';
import { UploadError } from './errors';
import { checkOncePerProcess, type StorageCheck } from './storage-check';
import type { StorageClientSource } from './presign';
import { removeRefusedObject } from './refused-object';
import { loadS3, S3_CLIENT_DEFAULTS } from './sdk';
import type { ResolvedStorageSettings } from './settings';
import type { TokenIssuer } from './temporary-token';

/**
 * How long a refusal is kept before storage is asked again, in milliseconds: a bucket changed meanwhile takes
 * effect without a restart, and a misconfigured app asks storage at most once a minute.
 */
export const OBJECT_LOCK_RECHECK_MS = 60_000;

/** One verdict per process for each storage address, bucket and credentials, shared by every handler and route. */
const verdicts = new Map<string, StorageCheck>();

/** Start of the probe's object name under the key prefix: reconcile and storage events leave it alone (`isInternalKey`). */
const PROBE_NAME = 'upbeam-doctor-';

/** Statuses of GetObjectLockConfiguration that mean "no object lock here": none configured, or no such API. */
const NO_LOCK_STATUSES = new Set([404, 405, 501]);

/** The logged text of a refused temporary-token strategy. */
export function objectLockMessage(bucket: string): string {
  return (
    `Upbeam: bucket "${bucket}" has object lock, and storage applied an x-amz-object-lock-legal-hold header that an upload ` +
    "token's session policy denies (Ceph radosgw 16.2 evaluates no object-lock condition key): any browser holding a token " +
    'could give its object COMPLIANCE retention or a legal hold, which the server cannot delete. Upload tokens are refused ' +
    'on this bucket: upload to a bucket without object lock (storage then refuses lock headers, 400) and copy accepted ' +
    `objects into the locked bucket from onUploadComplete. Storage is asked again ${OBJECT_LOCK_RECHECK_MS / 1000} s after each refusal.`
  );
}

/**
 * Whether the bucket has object lock (GetObjectLockConfiguration, server credentials): `false` when none is
 * configured or storage has no such API (404, 405, 501), `undefined` when the server may not read it (403 and
 * other 4xx).
 * @throws Storage errors when storage could not be asked (no answer, a 5xx).
 */
export async function bucketObjectLock(server: S3Client, Bucket: string): Promise<boolean | undefined> {
  const { GetObjectLockConfigurationCommand } = await loadS3();
  return server.send(new GetObjectLockConfigurationCommand({ Bucket })).then(
    (answer) => answer.ObjectLockConfiguration?.ObjectLockEnabled === 'Enabled',
    (error: unknown) => {
      const status = statusOf(error);
      if (status !== undefined && NO_LOCK_STATUSES.has(status)) return false;
      if (status === undefined || status >= 500) throw error;
      return undefined;
    },
  );
}

/**
 * The browser's attack, made once: a token for a probe key under `keyPrefix` (`upbeam-doctor-*`, which
 * reconcile and storage events leave alone) PUTs an empty object with `x-amz-object-lock-legal-hold: ON`.
 * Refused (AWS S3 and MinIO apply the session policy's deny: 403; a bucket without object lock: 400): `false`.
 * Stored with the hold (radosgw 16.2): `true`. Whatever was stored is deleted, the hold lifted first.
 *
 * Cost: 1 STS call and 1 PUT; a HEAD and 1 or 2 deletes when storage took the PUT.
 * @throws Storage errors when storage could not be asked (no answer, a 5xx), and the issuer's errors.
 */
export async function tokenLocksObject(
  settings: ResolvedStorageSettings,
  input: { client: StorageClientSource; issue: TokenIssuer; keyPrefix: string },
): Promise<boolean> {
  const { HeadObjectCommand, PutObjectCommand, S3Client } = await loadS3();
  const server = await input.client();
  const Bucket = settings.bucket;
  const Key = `${input.keyPrefix}${PROBE_NAME}${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}.lock`;
  const credentials = await input.issue(Key);
  const browser: S3Client = new S3Client({
    ...S3_CLIENT_DEFAULTS,
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: credentials.AccessKeyId, secretAccessKey: credentials.SecretAccessKey, sessionToken: credentials.SessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  try {
    const stored = await browser.send(new PutObjectCommand({ Bucket, Key, Body: '', ObjectLockLegalHoldStatus: 'ON' })).catch((error: unknown) => {
      const status = statusOf(error);
      if (status === undefined || status >= 500) throw error;
      return undefined; // refused: 403 (the session policy) or 400 (no object lock)
    });
    if (!stored) return false;
    const head = await server.send(new HeadObjectCommand({ Bucket, Key, VersionId: stored.VersionId }));
    // Best effort: under a default retention rule of the bucket the probe's version stays until it ends.
    await removeRefusedObject(server, Bucket, Key, head, () => {}).catch(() => {});
    return head.ObjectLockLegalHoldStatus === 'ON';
  } finally {
    browser.destroy();
  }
}

/**
 * Does an upload token make a held object here? {@link bucketObjectLock} first: without object lock, storage
 * refuses every lock header (radosgw, AWS: 400), so no; with it, or when the server may not read it,
 * {@link tokenLocksObject} tells. Cost: 1 request on a bucket without object lock.
 */
export async function tokenSetsObjectLock(
  settings: ResolvedStorageSettings,
  input: { client: StorageClientSource; issue: TokenIssuer; keyPrefix: string },
): Promise<boolean> {
  if ((await bucketObjectLock(await input.client(), settings.bucket)) === false) return false;
  return tokenLocksObject(settings, input);
}

/**
 * The temporary-token strategy's guard: before the first token is handed out, {@link tokenSetsObjectLock} runs
 * once, and every token is refused while a token could set an object lock on this bucket.
 *
 * Runs once per process for each endpoint, bucket and access key (concurrent first requests share it), lazily on
 * the first token preparation; a refusal is asked again after {@link OBJECT_LOCK_RECHECK_MS}; a check that got
 * no verdict (storage unreachable, a 5xx) is not kept. Skipped for AWS S3 itself (no `endpoint`), which applies
 * the session policy's object-lock denies, and when `enabled` is false (`checkUnsignedHeaders: false`: the app
 * vouches for its storage).
 * @returns A function that resolves when tokens may be handed out.
 * @throws (from the returned function) {@link UploadError} `INVALID_SETTINGS` (500, logged with
 *   {@link objectLockMessage}) when a token could lock its object; `INTERNAL_SERVER_ERROR` (500) when storage
 *   could not be asked.
 */
export function createObjectLockGate(
  settings: ResolvedStorageSettings,
  input: { client: StorageClientSource; issue: TokenIssuer; keyPrefix: string; enabled: boolean },
): () => Promise<void> {
  if (!input.enabled || settings.endpoint === undefined) return () => Promise.resolve();
  const id = `${settings.endpoint}\n${settings.bucket}\n${settings.accessKeyId}`;
  const check = async () => {
    let locks: boolean;
    try {
      locks = await tokenSetsObjectLock(settings, input);
    } catch (cause) {
      if (cause instanceof UploadError) throw cause; // the issuer's own refusal (STS, a chaining role)
      throw new UploadError('INTERNAL_SERVER_ERROR', 'Upbeam could not ask storage whether an upload token can set an object lock.', { cause });
    }
    if (locks) throw new UploadError('INVALID_SETTINGS', objectLockMessage(settings.bucket));
  };
  return checkOncePerProcess(verdicts, id, check, OBJECT_LOCK_RECHECK_MS);
}
