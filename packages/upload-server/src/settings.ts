import { UploadError } from './errors';
import { processEnv, present, SETTING_ENV, type Env } from './env';
import { applyProviderPreset, type ProviderSettings } from './providers';

// The environment's helpers live in env.ts, which providers.ts reads too: no import cycle between the two.
export { processEnv, present, SETTING_ENV, type Env } from './env';

/**
 * Storage settings of the handler. Each one left out is read from its environment variable (named as `Env:`
 * in its documentation).
 */
export interface StorageSettings extends ProviderSettings {
  /** Access key id of the server's credentials. Env: `S3_UPLOAD_KEY`. */
  accessKeyId?: string;
  /** Secret access key of the server's credentials. Env: `S3_UPLOAD_SECRET`. */
  secretAccessKey?: string;
  /** Bucket name. Env: `S3_UPLOAD_BUCKET`. */
  bucket?: string;
  /** Region of the bucket, e.g. `us-east-1` (`auto` for Cloudflare R2). Env: `S3_UPLOAD_REGION`. */
  region?: string;
  /**
   * Endpoint of an S3-compatible server (R2, MinIO, Ceph, a local server), e.g.
   * `https://<account>.r2.cloudflarestorage.com`. Leave unset for AWS S3. Env: `S3_UPLOAD_ENDPOINT`.
   */
  endpoint?: string;
  /**
   * Address objects as `{endpoint}/{bucket}/{key}` instead of `{bucket}.{endpoint host}/{key}`.
   * Needed by most self-hosted servers (MinIO, Ceph, `localhost`). Env: `S3_UPLOAD_FORCE_PATH_STYLE`
   * (`true` or `1`).
   * @default false
   */
  forcePathStyle?: boolean;
  /**
   * SSE-C: a 256-bit customer-provided key (32 bytes, or its base64) that storage encrypts each object with
   * (presigned strategy). The browser must send it with the PUT (the handler returns it in `headers`), and
   * every later read needs it too. Env: `S3_UPLOAD_SSE_CUSTOMER_KEY` (base64).
   */
  sseCustomerKey?: Uint8Array | string;
  /**
   * Canned ACL signed into every presigned PUT as the `x-amz-acl` header (the browser sends it as given in
   * `headers`), so that a PUT which adds or changes an ACL (`public-read`) or adds grants
   * (`x-amz-grant-*`: S3 and radosgw refuse a canned ACL and grants together, 400) fails with 403
   * SignatureDoesNotMatch. `'none'` signs no ACL: for storage that refuses the header; then close ACLs with
   * a bucket setting (the docs' Security guide, "Headers the browser could add").
   * - `bucket-owner-full-control`: the one canned ACL an AWS bucket with ACLs disabled (Object Ownership
   *   "bucket owner enforced", the default since April 2023) accepts; the object stays private to the
   *   bucket owner.
   * - `private`: what Cloudflare R2 accepts (it supports no other ACL).
   * Env: `S3_UPLOAD_OBJECT_ACL`.
   * @default 'bucket-owner-full-control' without `endpoint` (AWS), 'private' with one
   */
  objectAcl?: ObjectAcl;
  /**
   * Whether browsers send a checksum storage verifies: `'md5'` puts `checksum: 'md5'` in every preparation
   * answer, and the client then sends a `Content-MD5` (RFC 1864) with each part and each single PUT, which
   * storage checks (a byte changed on the way is refused with 400 `BadDigest` and sent again). The client
   * hashes the file in the browser (WebAssembly, a lazy chunk): a single PUT waits for the whole file to be
   * hashed, multipart hashes the next parts while others are sent (the docs' guide "Large files and resume",
   * "Checksums"; figures in bench/RESULTS.md). The bucket's CORS rule must allow the `Content-MD5`
   * request header (`AllowedHeaders: ["*"]` does). A client's own `checksum` option wins over this.
   * Env: `S3_UPLOAD_CHECKSUM` (`md5` or `off`).
   * @default the provider preset's (`PROVIDER_PRESETS`: `'md5'` where the provider documents that it
   *   verifies `Content-MD5`); without a provider, `'md5'` for AWS S3 (no `endpoint`) and `false` with an
   *   `endpoint` (unknown storage: s3rver, for one, verifies nothing)
   */
  checksum?: 'md5' | false;
  /**
   * Before it hands out its first presigned URL, the handler checks once per process (per endpoint, bucket and
   * access key) that storage refuses headers a presigned URL did not sign: it sends its own bucket a presigned
   * PUT with an added `x-amz-copy-source` and one with an added `x-amz-object-lock-legal-hold`, and refuses the
   * presigned strategy (500, logged through `onError` with the fix) while storage would copy another object or
   * hold one (Ceph radosgw without the bucket policy of `unsignedHeaderBucketPolicy`). Costs 4 small requests
   * (2 round trips and a DELETE) on the first presigned preparation; writes and deletes an object of 20 bytes
   * under `keyPrefix` (`upbeam-doctor-*`). Not made for AWS S3 itself (no `endpoint`), which refuses unsigned
   * `x-amz-*` headers. Likewise before its first upload token: where the bucket has object lock (one
   * GetObjectLockConfiguration; else nothing more), a token for an `upbeam-doctor-*` key tries a PutObject with
   * `x-amz-object-lock-legal-hold: ON`, and tokens are refused while storage applies it (radosgw 16.2, whatever
   * the policies: a browser could make its object undeletable). `false` skips both: only for storage that the
   * doctor's `presigned-headers` and `object-lock` checks passed.
   * @default true
   */
  checkUnsignedHeaders?: boolean;
}

/** Canned ACLs the handler can sign into presigned PUTs ({@link StorageSettings.objectAcl}). */
export const OBJECT_ACLS = ['bucket-owner-full-control', 'private', 'none'] as const satisfies readonly ObjectAcl[];

/** A canned ACL the handler can sign into presigned PUTs; `'none'` sends no `x-amz-acl`. */
export type ObjectAcl = 'bucket-owner-full-control' | 'private' | 'none';

/** Settings after env fallback: the four required ones are present. */
export interface ResolvedStorageSettings {
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** The SSE-C key, 32 bytes, when configured. */
  sseCustomerKey?: Uint8Array;
  /** The canned ACL presigned PUTs sign; absent for `objectAcl: 'none'`. */
  objectAcl?: Exclude<ObjectAcl, 'none'>;
  /** `'md5'` when preparation answers ask the browser for a `Content-MD5`; absent for none. */
  checksum?: 'md5';
}

/** Settings whose value is one string, given in code or read from their variable. */
type TextSetting = 'accessKeyId' | 'secretAccessKey' | 'bucket' | 'region' | 'endpoint' | 'roleArn' | 'stsEndpoint';

const REQUIRED = ['accessKeyId', 'secretAccessKey', 'bucket', 'region'] as const;

/**
 * Fills each missing setting from its environment variable.
 *
 * @param settings - Settings given in code; these win over the environment.
 * @param env - Where to read variables from. @default process.env
 * @throws {@link UploadError} `MISSING_SETTINGS` (500, logged, never sent to the browser) when any of
 *   access key, secret, bucket or region is absent, with the message
 *   `Upbeam: Missing ENVs S3_UPLOAD_KEY, ...` naming every missing variable; `INVALID_SETTINGS` when the
 *   bucket holds a '/' and is not an access-point ARN, the SSE-C key is not 32 bytes (or not base64),
 *   `objectAcl` is not one of {@link OBJECT_ACLS}, `S3_UPLOAD_CHECKSUM` is not `md5` or `off`, or the
 *   provider preset cannot be applied
 *   ({@link applyProviderPreset}).
 */
export function resolveStorageSettings(given: StorageSettings = {}, env: Env = processEnv()): ResolvedStorageSettings {
  // Provider preset (providers.ts): fills endpoint, region and path style that neither code nor env set.
  const settings = applyProviderPreset(given, env);
  const pick = (name: Exclude<TextSetting, 'roleArn' | 'stsEndpoint'>) => textSetting(settings, env, name);
  const missing = REQUIRED.filter((name) => pick(name) === undefined).map((name) => SETTING_ENV[name]);
  if (missing.length > 0) {
    throw new UploadError('MISSING_SETTINGS', `Upbeam: Missing ENVs ${missing.join(', ')}`);
  }
  const endpoint = pick('endpoint');
  const bucket = pick('bucket')!;
  // SPEC 5; S3 bucket names are 3-63 characters of [a-z0-9.-]. An access-point ARN is the one bucket value
  // with a '/' (arn:aws:s3:region:account:accesspoint/name).
  if (bucket.includes('/') && !/^arn:[\w-]+:s3(-object-lambda)?:[\w-]*:\d*:accesspoint\/[\w.-]+$/.test(bucket)) {
    throw new UploadError('INVALID_SETTINGS', `Bucket name "${bucket}" must not contain '/' unless it is an access-point ARN.`);
  }
  const sseCustomerKey = customerKey(settings.sseCustomerKey ?? present(env[SETTING_ENV.sseCustomerKey]));
  return {
    accessKeyId: pick('accessKeyId')!,
    secretAccessKey: pick('secretAccessKey')!,
    bucket,
    region: pick('region')!,
    ...(endpoint === undefined ? {} : { endpoint }),
    forcePathStyle: settings.forcePathStyle ?? /^(true|1)$/i.test(env[SETTING_ENV.forcePathStyle] ?? ''),
    ...(sseCustomerKey === undefined ? {} : { sseCustomerKey }),
    ...signedAcl(settings.objectAcl ?? present(env[SETTING_ENV.objectAcl]), endpoint),
    ...checksumSetting(settings.checksum ?? present(env[SETTING_ENV.checksum]), endpoint),
  };
}

/** A one-string setting: from code when non-blank, else from its environment variable ({@link SETTING_ENV}). */
export function textSetting(settings: Partial<Record<TextSetting, string>>, env: Env, name: TextSetting): string | undefined {
  return present(settings[name]) ?? present(env[SETTING_ENV[name]]);
}

/** `roleArn` and `stsEndpoint` of the temporary-token strategy, after env fallback. */
export function resolveStsSettings(
  settings: { roleArn?: string; stsEndpoint?: string },
  env: Env = processEnv(),
): { roleArn: string | undefined; stsEndpoint: string | undefined } {
  return { roleArn: textSetting(settings, env, 'roleArn'), stsEndpoint: textSetting(settings, env, 'stsEndpoint') };
}

function signedAcl(value: string | undefined, endpoint: string | undefined): Pick<ResolvedStorageSettings, 'objectAcl'> {
  const acl = value ?? (endpoint === undefined ? 'bucket-owner-full-control' : 'private');
  if (!(OBJECT_ACLS as readonly string[]).includes(acl)) {
    throw new UploadError('INVALID_SETTINGS', `objectAcl must be one of ${OBJECT_ACLS.join(', ')}; got "${acl}".`);
  }
  return acl === 'none' ? {} : { objectAcl: acl as Exclude<ObjectAcl, 'none'> };
}

/**
 * The checksum setting: given in code, else `S3_UPLOAD_CHECKSUM`, else (no provider preset filled it in)
 * on for AWS S3 and off for any other endpoint.
 */
function checksumSetting(value: 'md5' | false | string | undefined, endpoint: string | undefined): Pick<ResolvedStorageSettings, 'checksum'> {
  const checksum = value ?? (endpoint === undefined ? 'md5' : false);
  const name = typeof checksum === 'string' ? checksum.trim().toLowerCase() : checksum;
  if (name === 'md5') return { checksum: name };
  if (name === false || name === 'off') return {};
  throw new UploadError('INVALID_SETTINGS', `checksum (S3_UPLOAD_CHECKSUM) must be md5 or off; got "${checksum}".`);
}

/** Length of an SSE-C key in bytes: AES-256 (SPEC 5; S3 answers InvalidArgument to other lengths). */
export const SSE_CUSTOMER_KEY_BYTES = 32;

function customerKey(value: Uint8Array | string | undefined): Uint8Array | undefined {
  if (value === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = typeof value === 'string' ? Uint8Array.from(atob(value.trim()), (c) => c.charCodeAt(0)) : value;
  } catch (cause) {
    throw new UploadError('INVALID_SETTINGS', 'The SSE-C customer key string must be base64.', { cause });
  }
  if (bytes.byteLength !== SSE_CUSTOMER_KEY_BYTES) {
    throw new UploadError(
      'INVALID_SETTINGS',
      `The SSE-C customer key must be ${SSE_CUSTOMER_KEY_BYTES} bytes (AES-256); got ${bytes.byteLength}.`,
    );
  }
  return bytes;
}
