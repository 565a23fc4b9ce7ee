import { UploadError } from './errors';
import { processEnv, present, SETTING_ENV, type Env } from './env';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '@upbeam/upload-protocol';
import { applyProviderPreset, PROVIDER_PRESETS, resolveProvider } from './providers';
import type { ObjectAcl, StorageSettings } from './storage-config';

// The environment's helpers live in env.ts and the setting types in storage-config.ts, which providers.ts reads
// too: no import cycle between the two.
export { processEnv, present, SETTING_ENV, type Env } from './env';
export type { ObjectAcl, StorageSettings } from './storage-config';

/** Canned ACLs the handler can sign into presigned PUTs ({@link StorageSettings.objectAcl}). */
export const OBJECT_ACLS = ['bucket-owner-full-control', 'private', 'none'] as const satisfies readonly ObjectAcl[];

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
  /**
   * The checksum preparation answers ask the browser for (`StorageSettings.checksum`); `undefined` for none.
   */
  checksum: ChecksumAlgorithm | undefined;
  /** Whether every write the handler signs carries `If-None-Match: *` (`StorageSettings.conditionalWrites`). */
  conditionalWrites: boolean;
  /**
   * The checksums this storage verifies on PutObject and UploadPart (the provider preset's `checksums`; AWS S3's
   * without `endpoint`); `undefined` for unknown storage (an `endpoint` without `provider`): the handler then
   * accepts whichever algorithm a client asks for.
   */
  verifiedChecksums: readonly ChecksumAlgorithm[] | undefined;
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
 *   `objectAcl` is not one of {@link OBJECT_ACLS}, `checksum` (`S3_UPLOAD_CHECKSUM`) is not one of
 *   `crc32c`, `crc64nvme`, `sha256`, `md5`, `off`, `S3_UPLOAD_CONDITIONAL_WRITES` is not `true` or `false`, or
 *   the provider preset cannot be applied
 *   ({@link applyProviderPreset}).
 */
export function resolveStorageSettings(given: StorageSettings = {}, env: Env = processEnv()): ResolvedStorageSettings {
  // Provider preset (providers.ts): fills endpoint, region and path style that neither code nor env set.
  const settings = applyProviderPreset(given, env);
  const provider = resolveProvider(given, env);
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
    checksum: checksumSetting(settings.checksum ?? present(env[SETTING_ENV.checksum]), endpoint),
    conditionalWrites: conditionalWritesSetting(settings.conditionalWrites ?? present(env[SETTING_ENV.conditionalWrites]), endpoint),
    // Unknown storage (an endpoint without a provider): undefined, the client's algorithm is accepted.
    verifiedChecksums:
      provider !== undefined ? PROVIDER_PRESETS[provider].checksums : endpoint === undefined ? PROVIDER_PRESETS.aws.checksums : undefined,
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
 * The checksum setting: given in code, else `S3_UPLOAD_CHECKSUM`, else (no provider preset filled it in) the
 * `aws` preset's for AWS S3 and off for any other endpoint.
 */
function checksumSetting(value: ChecksumAlgorithm | false | string | undefined, endpoint: string | undefined): ChecksumAlgorithm | undefined {
  const checksum = value ?? (endpoint === undefined ? PROVIDER_PRESETS.aws.checksum : false);
  if (checksum === false) return undefined;
  const name = checksum.trim().toLowerCase();
  if (name === 'off') return undefined;
  if ((CHECKSUM_ALGORITHMS as readonly string[]).includes(name)) return name as ChecksumAlgorithm;
  throw new UploadError(
    'INVALID_SETTINGS',
    `checksum (S3_UPLOAD_CHECKSUM) must be one of ${CHECKSUM_ALGORITHMS.join(', ')} or off; got "${String(checksum)}".`,
  );
}

/**
 * The conditional-writes setting: given in code, else `S3_UPLOAD_CONDITIONAL_WRITES`, else (no provider preset
 * filled it in) the `aws` preset's for AWS S3 and off for any other endpoint.
 */
function conditionalWritesSetting(value: boolean | string | undefined, endpoint: string | undefined): boolean {
  if (typeof value === 'boolean') return value;
  if (value === undefined) return endpoint === undefined ? PROVIDER_PRESETS.aws.conditionalWrites : false;
  const name = value.trim().toLowerCase();
  if (name === 'true' || name === '1') return true;
  if (name === 'false' || name === '0') return false;
  throw new UploadError('INVALID_SETTINGS', `conditionalWrites (S3_UPLOAD_CONDITIONAL_WRITES) must be true or false; got "${value}".`);
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
