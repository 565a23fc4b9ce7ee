import { UploadError } from './errors';
import { present, SETTING_ENV, type Env } from './env';
import type { ChecksumAlgorithm } from '@upbeam/upload-protocol';
import type { ProviderSettings, StorageProvider, StorageSettings } from './storage-config';

export type { ProviderSettings, StorageProvider } from './storage-config';

/** What a provider offers for the temporary-token strategy (STS), as its documentation says. */
export type ProviderSts =
  /** AWS STS: GetFederationToken, or AssumeRole with `roleArn`. */
  | 'federation-token-or-assume-role'
  /** STS AssumeRole only: `roleArn` is required (GetFederationToken is AWS's alone). */
  | 'assume-role'
  /** No STS API: the temporary-token strategy is refused. */
  | 'none';

/** One provider's preset. */
export interface ProviderPreset {
  /**
   * Endpoint template: `{region}` and `{accountId}` are filled in. Absent: AWS's own endpoints (`aws`), or
   * an endpoint the app gives (`minio`, `ceph`: self-hosted, no fixed address).
   */
  endpoint?: string;
  /** Region used when none is given; absent when the app must choose one. */
  region?: string;
  /** `{endpoint}/{bucket}/{key}` addressing instead of `{bucket}.{host}`. */
  forcePathStyle: boolean;
  /** The provider's STS, as documented. */
  sts: ProviderSts;
  /** STS endpoint used when `stsEndpoint` is not given: the storage endpoint itself when `'storage'`. */
  stsEndpoint?: string | 'storage';
  /**
   * The checksums storage verifies on PutObject AND UploadPart (a body that does not match is refused), as
   * its documentation says or as measured here; empty where none is known to be.
   */
  checksums: readonly ChecksumAlgorithm[];
  /**
   * The default of the handler's `checksum` setting: the strongest cheap check storage verifies
   * (`crc64nvme` if in `checksums`, else `crc32c`, else `md5`, else `false`); `sha256` is opt-in.
   */
  checksum: ChecksumAlgorithm | false;
  /** Whether storage honours `If-None-Match: *` on PutObject and CompleteMultipartUpload (412 when the key holds an object). */
  conditionalWrites: boolean;
  /**
   * Whether storage takes S3's POST Object (a browser form with a SigV4 policy: the `presigned-post` strategy).
   * `false`: documented as missing, and a `presigned-post` preparation is refused (501 `NOT_SUPPORTED`);
   * `undefined`: not documented either way, not refused (the doctor's `post-object` check tells).
   */
  postObject?: boolean | undefined;
}

const ALL_CHECKSUMS: readonly ChecksumAlgorithm[] = ['crc32c', 'crc64nvme', 'sha256', 'md5'];

/**
 * The presets. Sources (documentation read 2026-11):
 * - `aws`: SDK's own endpoints, virtual-hosted style; STS GetFederationToken and AssumeRole.
 * - `r2`: `https://{accountId}.r2.cloudflarestorage.com`, region `auto` (Cloudflare R2 "S3 API
 *   compatibility": empty and `us-east-1` alias to `auto`). R2's temporary credentials come from Cloudflare's
 *   REST API (`/accounts/{id}/r2/temp-access-credentials`, R2 docs "Temporary credentials"), not from an STS
 *   endpoint: refused.
 * - `b2`: `https://s3.{region}.backblazeb2.com` (Backblaze "Call the S3-Compatible API"; region like
 *   `us-west-004`). Backblaze documents an IAM/STS API with AssumeRole, in early/limited access (2026, via
 *   its Sales team): allowed with `roleArn` and `stsEndpoint`, which Upbeam cannot guess.
 * - `digitalocean`: `https://{region}.digitaloceanspaces.com`. No STS is documented that we found; not
 *   verified either way, so not refused: AssumeRole with `roleArn` and `stsEndpoint` if your account has one.
 * - `wasabi`: `https://s3.{region}.wasabisys.com`; STS GetSessionToken and AssumeRole at
 *   `https://sts.wasabisys.com` (Wasabi "Using Temporary Security Credentials With Wasabi STS"); AssumeRole
 *   needs a sub-user's keys, not the root's.
 * - `minio`, `ceph`: the endpoint you give (`S3_UPLOAD_ENDPOINT`), path style; STS AssumeRole at the same
 *   endpoint (MinIO STS; Ceph radosgw "STS", measured on radosgw 16: GetFederationToken answers 405).
 *
 * `checksums` (which checksums does storage verify on PutObject AND UploadPart, refusing a body that does not
 * match?), `checksum` (the default: `crc64nvme` if verified, else `crc32c`, else `md5`, else none) and
 * `conditionalWrites` (does PutObject and CompleteMultipartUpload honour `If-None-Match: *` with 412?),
 * documentation read 2026-11-29 (MD5 facts 2026-11-23), or measured here:
 * - `aws`: all four, default `crc64nvme`; conditional writes on. Amazon S3 User Guide, "Checking object
 *   integrity in Amazon S3": S3 computes the checksum it is sent (`x-amz-checksum-crc32c`, `-crc64nvme`,
 *   `-sha256`) and refuses the request when the values differ, on single PUTs and on each part; CRC64NVME
 *   multipart checksums are full-object only, CRC32C composite or full-object, SHA-256 composite only; PutObject
 *   and UploadPart API references: 400 `BadDigest` to a `Content-MD5` that does not match. "How to prevent
 *   object overwrites with conditional writes": `If-None-Match: *` on PutObject and CompleteMultipartUpload,
 *   412 Precondition Failed when the key exists.
 * - `r2`: all four, default `crc64nvme`; conditional writes on. Cloudflare R2 "S3 API compatibility",
 *   "Checksum Types": CRC-64/NVME full-object only (composite ❌), CRC-32C and SHA-256 composite only (which are
 *   the multipart types Upbeam uses); `Content-MD5` implemented (✅) on PutObject and UploadPart. R2
 *   "Conditional operations": PutObject and CompleteMultipartUpload accept `If-None-Match` (`*`: only if the
 *   key holds no object).
 * - `b2`: none; conditional writes off. Backblaze "S3 Put Object" / "S3 Upload Part" list neither
 *   `Content-MD5` nor an `x-amz-checksum-*` header (its native API checks SHA-1 instead), nor `If-None-Match`
 *   on writes: unclear, so not sent. Set `checksum` by hand where the doctor's `checksum` check finds one verified.
 * - `digitalocean`: none; conditional writes off. The Spaces API reference says nothing of `Content-MD5`,
 *   `x-amz-checksum-*` or conditional PUTs that we found: unclear.
 * - `wasabi`: `md5`; conditional writes off. Wasabi "REST API Introduction", error codes: 400 `BadDigest`,
 *   "The Content-MD5 you specified did not match what we received."; nothing found on `x-amz-checksum-*` or
 *   `If-None-Match` on PUT.
 * - `minio`: all four, default `crc64nvme`; conditional writes on. MinIO answers `BadDigest` to a wrong
 *   `Content-MD5` (minio/minio#1603, fixed in #1604, 2016, PutObjectHandler and PutObjectPartHandler); CRC32C
 *   and SHA-256 are verified since 2022, CRC64NVME and full-object checksums since minio/minio#20855 (merged
 *   2025-01-20: "using checksums as validation for object content"): older MinIO releases need
 *   `checksum: 'crc32c'`. `If-None-Match: *` on PutObject (MinIO "conditional writes", minio/minio#20346) and
 *   CompleteMultipartUpload (minio/minio#19713, merged 2024-05: "verify preconditions during CompleteMultipart").
 * - `ceph`: `md5`; conditional writes on. Measured on radosgw 16.2 (`checksum-radosgw.test.ts`,
 *   `doctor-radosgw.test.ts`): a changed byte under `Content-MD5` is refused (400 `BadDigest`) on PutObject and
 *   UploadPart; an `x-amz-checksum-crc32c`, `-crc64nvme` or `-sha256` that does not match is ignored (stored);
 *   `If-None-Match: *` answers 412 on PutObject, but CompleteMultipartUpload ignores it (the object is
 *   overwritten): single PUTs and token PutObjects are written once, multipart uploads are not guarded. Ceph 19
 *   (Squid) added S3 additional checksums (ceph/ceph#55076): there, set `checksum` once the doctor's `checksum`
 *   check confirms it.
 *
 * `postObject` (does storage take a presigned POST, S3's POST Object with a policy?), documentation read 2026-11-29,
 * or measured here: `aws` yes (Amazon S3 API reference, "PostObject"; "Browser-based uploads using POST"); `r2` no
 * (Cloudflare R2 "S3 API compatibility" lists no POST Object among its operations, and POST policy uploads are
 * reported refused: outline/outline#4480, TimMikeladze/next-upload#53); `b2` no (its "S3 Compatible API" list of
 * supported calls has no POST Object); `minio` yes (MinIO "PostPolicy", `PresignedPostPolicy` in its SDKs);
 * `ceph` yes (radosgw's POST Object, measured on radosgw 16.2: `presigned-post-storage.test.ts`,
 * bench/notes/presigned-post.md); `digitalocean`, `wasabi`: nothing found either way (not refused).
 */
export const PROVIDER_PRESETS: Readonly<Record<StorageProvider, ProviderPreset>> = {
  aws: { forcePathStyle: false, sts: 'federation-token-or-assume-role', checksums: ALL_CHECKSUMS, checksum: 'crc64nvme', conditionalWrites: true, postObject: true },
  r2: {
    endpoint: 'https://{accountId}.r2.cloudflarestorage.com',
    region: 'auto',
    forcePathStyle: false,
    sts: 'none',
    checksums: ALL_CHECKSUMS,
    checksum: 'crc64nvme',
    conditionalWrites: true,
    postObject: false,
  },
  b2: { endpoint: 'https://s3.{region}.backblazeb2.com', forcePathStyle: false, sts: 'assume-role', checksums: [], checksum: false, conditionalWrites: false, postObject: false },
  digitalocean: {
    endpoint: 'https://{region}.digitaloceanspaces.com',
    forcePathStyle: false,
    sts: 'assume-role',
    checksums: [],
    checksum: false,
    conditionalWrites: false,
  },
  wasabi: {
    endpoint: 'https://s3.{region}.wasabisys.com',
    forcePathStyle: false,
    sts: 'assume-role',
    stsEndpoint: 'https://sts.wasabisys.com',
    checksums: ['md5'],
    checksum: 'md5',
    conditionalWrites: false,
  },
  minio: { forcePathStyle: true, sts: 'assume-role', stsEndpoint: 'storage', checksums: ALL_CHECKSUMS, checksum: 'crc64nvme', conditionalWrites: true, postObject: true },
  ceph: { forcePathStyle: true, sts: 'assume-role', stsEndpoint: 'storage', checksums: ['md5'], checksum: 'md5', conditionalWrites: true, postObject: true },
};

/**
 * The default `checksum` for storage that verifies `checksums`: the strongest cheap check (CRC-64/NVME, else
 * CRC-32C, else MD5), `false` for none. SHA-256 is never a default (it costs more to compute; opt in for
 * content-addressed keys).
 */
export function defaultChecksum(checksums: readonly ChecksumAlgorithm[]): ChecksumAlgorithm | false {
  return (['crc64nvme', 'crc32c', 'md5'] as const).find((algorithm) => checksums.includes(algorithm)) ?? false;
}

function isProvider(value: string): value is StorageProvider {
  return Object.hasOwn(PROVIDER_PRESETS, value);
}

/**
 * The provider chosen in code or by `S3_UPLOAD_PROVIDER`, if any.
 * @throws {@link UploadError} `INVALID_SETTINGS` (500, logged) for an unknown name.
 */
export function resolveProvider(settings: ProviderSettings, env: Env): StorageProvider | undefined {
  const name = present(settings.provider) ?? present(env[SETTING_ENV.provider]);
  if (name === undefined) return undefined;
  const normalized = name.trim().toLowerCase();
  if (!isProvider(normalized)) {
    throw new UploadError(
      'INVALID_SETTINGS',
      `Unknown storage provider "${name}": use one of ${Object.keys(PROVIDER_PRESETS).join(', ')}.`,
    );
  }
  return normalized;
}

/**
 * The storage settings with the provider preset's endpoint, region, path style, checksum and conditional writes
 * filled in where neither the code nor the env variable (`S3_UPLOAD_ENDPOINT`, `S3_UPLOAD_REGION`,
 * `S3_UPLOAD_FORCE_PATH_STYLE`, `S3_UPLOAD_CHECKSUM`, `S3_UPLOAD_CONDITIONAL_WRITES`) gives them. Without a provider the settings are returned unchanged.
 * @throws {@link UploadError} `INVALID_SETTINGS` (500, logged) for an unknown provider, an R2 preset without
 *   `accountId`, a `{region}` endpoint without a region, or `minio`/`ceph` without an endpoint.
 */
export function applyProviderPreset<T extends StorageSettings & ProviderSettings>(settings: T, env: Env): T {
  const provider = resolveProvider(settings, env);
  if (provider === undefined) return settings;
  const preset = PROVIDER_PRESETS[provider];
  const region = present(settings.region) ?? present(env[SETTING_ENV.region]) ?? preset.region;
  const givenEndpoint = present(settings.endpoint) ?? present(env[SETTING_ENV.endpoint]);
  const pathStyleGiven = settings.forcePathStyle !== undefined || present(env[SETTING_ENV.forcePathStyle]) !== undefined;
  const checksumGiven = settings.checksum !== undefined || present(env[SETTING_ENV.checksum]) !== undefined;
  const conditionalGiven = settings.conditionalWrites !== undefined || present(env[SETTING_ENV.conditionalWrites]) !== undefined;
  const endpoint = givenEndpoint ?? presetEndpoint(provider, preset, { ...settings, region }, env);
  return {
    ...settings,
    ...(region === undefined ? {} : { region }),
    ...(endpoint === undefined ? {} : { endpoint }),
    ...(pathStyleGiven ? {} : { forcePathStyle: preset.forcePathStyle }),
    ...(checksumGiven ? {} : { checksum: preset.checksum }),
    ...(conditionalGiven ? {} : { conditionalWrites: preset.conditionalWrites }),
  };
}

function presetEndpoint(provider: StorageProvider, preset: ProviderPreset, settings: ProviderSettings & { region?: string }, env: Env) {
  if (provider === 'minio' || provider === 'ceph') {
    throw new UploadError('INVALID_SETTINGS', `Provider "${provider}" is self-hosted: set its endpoint (S3_UPLOAD_ENDPOINT).`);
  }
  if (preset.endpoint === undefined) return undefined;
  let endpoint = preset.endpoint;
  if (endpoint.includes('{accountId}')) {
    const accountId = present(settings.accountId) ?? present(env[SETTING_ENV.accountId]);
    if (accountId === undefined) {
      throw new UploadError('INVALID_SETTINGS', `Provider "${provider}" needs your account id (accountId, S3_UPLOAD_ACCOUNT_ID).`);
    }
    endpoint = endpoint.replace('{accountId}', encodeURIComponent(accountId));
  }
  if (endpoint.includes('{region}')) {
    if (settings.region === undefined) {
      throw new UploadError('INVALID_SETTINGS', `Provider "${provider}" needs a region (S3_UPLOAD_REGION), e.g. for ${preset.endpoint}.`);
    }
    endpoint = endpoint.replace('{region}', encodeURIComponent(settings.region));
  }
  return endpoint;
}

/**
 * Refuses the presigned-post strategy on a provider whose preset says it has no POST Object (`postObject: false`).
 * @throws {@link UploadError} `NOT_SUPPORTED` (501, sent to the browser with its message) naming the other strategies.
 */
export function assertPostObject(provider: StorageProvider | undefined): void {
  if (provider !== undefined && PROVIDER_PRESETS[provider].postObject === false) {
    throw new UploadError(
      'NOT_SUPPORTED',
      `Storage provider "${provider}" does not take POST Object uploads, so the presigned-post strategy cannot work there: use the presigned or temporary-token strategy.`,
    );
  }
}

/**
 * The STS endpoint the temporary-token strategy should use with this provider, after checking that the
 * provider has STS. Called when the handler builds its token issuer, i.e. at the first temporary-token
 * request (settings are resolved lazily), so a refusal is a 500 `Internal Server Error` answered to that
 * request and logged through `onError` with the message below; presigned uploads keep working.
 *
 * @param given - `roleArn` and `stsEndpoint` from code or env.
 * @param storageEndpoint - The resolved storage endpoint (for `minio`/`ceph`, whose STS is the same address).
 * @returns The `stsEndpoint` to use (the given one, else the preset's, else undefined: the SDK's default).
 * @throws {@link UploadError} `INVALID_SETTINGS`: the provider documents no STS (`r2`), or it has STS
 *   AssumeRole only and `roleArn` (`S3_UPLOAD_ROLE_ARN`) is missing, or (`b2`, `digitalocean`) no
 *   `stsEndpoint` is given.
 */
export function providerStsEndpoint(
  provider: StorageProvider | undefined,
  given: { roleArn?: string; stsEndpoint?: string },
  storageEndpoint: string | undefined,
): string | undefined {
  if (provider === undefined) return given.stsEndpoint;
  const preset = PROVIDER_PRESETS[provider];
  if (preset.sts === 'none') {
    throw new UploadError(
      'INVALID_SETTINGS',
      `Provider "${provider}" has no STS endpoint, so the temporary-token strategy cannot work there: use the presigned strategy (multipart included).`,
    );
  }
  if (preset.sts === 'assume-role' && given.roleArn === undefined) {
    throw new UploadError(
      'INVALID_SETTINGS',
      `Provider "${provider}" offers STS AssumeRole only (GetFederationToken is AWS's): set roleArn (S3_UPLOAD_ROLE_ARN) for the temporary-token strategy.`,
    );
  }
  if (given.stsEndpoint !== undefined) return given.stsEndpoint;
  if (preset.stsEndpoint === 'storage') return storageEndpoint;
  if (preset.stsEndpoint !== undefined) return preset.stsEndpoint;
  if (provider === 'aws') return undefined;
  throw new UploadError(
    'INVALID_SETTINGS',
    `Provider "${provider}" has no documented public STS endpoint: set stsEndpoint (S3_UPLOAD_STS_ENDPOINT) for the temporary-token strategy.`,
  );
}
