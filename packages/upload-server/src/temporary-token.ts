import type { Credentials, STSClient } from '@aws-sdk/client-sts';
import type { TemporaryCredentials } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import { assertNoOtherRoles, assertNoRoleChaining } from './role-chaining';
import { CLIENT_DEFAULTS, loadSts } from './sdk';
import type { ResolvedStorageSettings } from './settings';
import { createTickets, type Tickets } from './ticket';

/**
 * Name of the federated user / role session of every upload token. STS allows 2 to 32 characters of
 * `[\w+=,.@-]` for GetFederationToken `Name` (AWS STS API reference).
 */
export const UPLOAD_TOKEN_NAME = 'S3UploadWebToken';

/** Lifetime of a temporary token, in seconds (SPEC 7.2; STS allows 900 to 129600 for federation tokens). */
export const TEMPORARY_TOKEN_DURATION_SECONDS = 3600;

/** Shortest token lifetime STS grants, in seconds (AssumeRole and GetFederationToken `DurationSeconds`). */
export const MIN_TOKEN_DURATION_SECONDS = 900;

/**
 * Longest token lifetime STS grants, in seconds (GetFederationToken: 36 hours). AssumeRole allows at most
 * the role's MaxSessionDuration (1 to 12 hours; AWS's default 1 hour) and refuses more.
 */
export const MAX_TOKEN_DURATION_SECONDS = 129_600;

/** How the temporary-token strategy obtains credentials. */
export interface TokenSettings {
  /**
   * ARN of a role to assume (STS `AssumeRole`) instead of asking for a federation token.
   * GetFederationToken exists on AWS only; S3-compatible stores with STS (MinIO, Ceph radosgw) offer
   * AssumeRole. The role's own policy must allow `s3:PutObject` (and `s3:AbortMultipartUpload`) on the
   * bucket; the session policy narrows it to one key. On radosgw its trust policy must also refuse role
   * sessions (`NO_ROLE_CHAINING_CONDITION`), or the browser's token can assume the role again with full
   * rights: with `stsEndpoint` set, the handler checks this with its first token and refuses to hand out
   * tokens while it is open. Env: `S3_UPLOAD_ROLE_ARN`.
   */
  roleArn?: string;
  /** Endpoint of the STS service, e.g. MinIO's or radosgw's own address. Env: `S3_UPLOAD_STS_ENDPOINT`. */
  stsEndpoint?: string;
  /**
   * Also allow `s3:PutObjectTagging` on the key, so the browser can tag the object after upload
   * (the client's `tags` option).
   * @default false
   */
  allowObjectTagging?: boolean;
  /** An STS client to use instead of one built from the storage settings (custom credentials, tests). */
  stsClient?: Pick<STSClient, 'send'>;
  /**
   * Lifetime of each temporary token, in seconds (STS `DurationSeconds`), from 900 to 129600. A long upload
   * renews its credentials (`_upload.renew`) 60 seconds before they expire, so a shorter lifetime means more
   * renewals, not a shorter upload. With `roleArn`, at most the role's MaxSessionDuration.
   * @default 3600
   */
  tokenDurationSeconds?: number;
}

/**
 * Mints credentials for one object key, valid `tokenDurationSeconds`, or until `notAfter` (seconds since the
 * epoch) when that is sooner, but never less than STS's shortest lifetime
 * ({@link MIN_TOKEN_DURATION_SECONDS}).
 */
export type TokenIssuer = (key: string, notAfter?: number) => Promise<TemporaryCredentials>;

/** ARN partition of a region: `aws-cn` for China, `aws-us-gov` for GovCloud, `aws` elsewhere. */
export function arnPartition(region: string): 'aws' | 'aws-cn' | 'aws-us-gov' {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

/**
 * `*`, `?` and `$` are wildcards / variables in IAM resource ARNs; written as `${*}`, `${?}`, `${$}` they
 * stand for themselves (IAM User Guide, "IAM policy elements: Variables and tags", special characters), so a
 * key holding them does not widen the policy to other keys.
 */
function escapeArnResource(value: string): string {
  return value.replace(/[*?$]/g, (character) => `\${${character}}`);
}

/** Canned ACLs that open an object to others: an upload token may not set them (`s3:x-amz-acl`). */
export const PUBLIC_CANNED_ACLS = ['public-read', 'public-read-write', 'authenticated-read'] as const;

/** Condition keys of the ACL grant headers (`x-amz-grant-*`): an upload token may send none of them. */
export const GRANT_CONDITION_KEYS = [
  's3:x-amz-grant-read',
  's3:x-amz-grant-write',
  's3:x-amz-grant-read-acp',
  's3:x-amz-grant-write-acp',
  's3:x-amz-grant-full-control',
] as const;

/**
 * Condition keys of the object-lock headers (`x-amz-object-lock-mode`, `-retain-until-date`, `-legal-hold`) on
 * PutObject (AWS S3's names): an upload token may send none of them, so that it cannot make its object
 * undeletable (COMPLIANCE retention, a legal hold). AWS S3 and MinIO evaluate them; Ceph radosgw 16.2 does not
 * (measured: the headers are applied whatever the policy says), hence the token check of `object-lock-gate.ts`.
 */
export const OBJECT_LOCK_CONDITION_KEYS = ['s3:object-lock-mode', 's3:object-lock-retain-until-date', 's3:object-lock-legal-hold'] as const;

/** A Deny of `s3:PutObject` (any resource) when `condition` holds. */
function denyPutObject(condition: Record<string, Record<string, string | readonly string[]>>) {
  return { Effect: 'Deny', Action: ['s3:PutObject'], Resource: ['*'], Condition: condition };
}

/**
 * The session policy of an upload token (IAM policy JSON, version 2012-10-17): `s3:PutObject` on exactly
 * `arn:{partition}:s3:::{bucket}/{key}`, which covers PutObject, CreateMultipartUpload, UploadPart and
 * CompleteMultipartUpload; `s3:AbortMultipartUpload` on the same object, so that a cancelled or failed
 * multipart upload can delete its parts instead of leaving them billed in the bucket; and, when asked,
 * `s3:PutObjectTagging`. Nothing else: no read, list or delete.
 *
 * Radosgw (and an AWS bucket with ACLs enabled) lets `s3:PutObject` set an ACL, so two Deny statements
 * follow: a PutObject with a public canned ACL ({@link PUBLIC_CANNED_ACLS}, `StringEquals s3:x-amz-acl`),
 * or with any `x-amz-grant-*` header (`StringLike {key}: *`, which never matches an absent header), is
 * refused (403). Measured on radosgw 16.2: both hold for PutObject; radosgw's `Null` condition is inverted
 * (it denies when the header is absent), hence `StringLike`. Radosgw does not evaluate them for
 * CreateMultipartUpload (the docs' Security guide, "Headers the browser could add"). A third set denies a
 * PutObject with any object-lock header ({@link OBJECT_LOCK_CONDITION_KEYS}; on AWS the token also lacks
 * `s3:PutObjectRetention` and `s3:PutObjectLegalHold`, which such a PutObject needs); radosgw 16.2 ignores it.
 */
export function uploadTokenPolicy(input: { bucket: string; key: string; region: string; allowObjectTagging?: boolean }): string {
  const actions = ['s3:PutObject', 's3:AbortMultipartUpload'];
  if (input.allowObjectTagging) actions.push('s3:PutObjectTagging');
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'UpbeamUploadOneObject',
        Effect: 'Allow',
        Action: actions,
        Resource: [`arn:${arnPartition(input.region)}:s3:::${input.bucket}/${escapeArnResource(input.key)}`],
      },
      denyPutObject({ StringEquals: { 's3:x-amz-acl': PUBLIC_CANNED_ACLS } }),
      ...GRANT_CONDITION_KEYS.map((key) => denyPutObject({ StringLike: { [key]: '*' } })),
      ...OBJECT_LOCK_CONDITION_KEYS.map((key) => denyPutObject({ StringLike: { [key]: '*' } })),
    ],
  });
}

/** The credentials as the browser gets them; `Expiration` is always set (issue time + duration if STS left it out). */
function toWire(credentials: Credentials | undefined, issuedAt: number, durationSeconds: number): TemporaryCredentials {
  if (!credentials?.AccessKeyId || !credentials.SecretAccessKey || !credentials.SessionToken) {
    throw new UploadError('INTERNAL_SERVER_ERROR', 'STS answered without credentials.');
  }
  const expiration = credentials.Expiration ?? new Date(issuedAt + durationSeconds * 1000);
  return {
    AccessKeyId: credentials.AccessKeyId,
    SecretAccessKey: credentials.SecretAccessKey,
    SessionToken: credentials.SessionToken,
    Expiration: expiration.toISOString(),
  };
}

/**
 * The token lifetime setting, checked.
 * @throws {@link UploadError} `INVALID_SETTINGS` (500, logged) outside 900 to 129600 whole seconds.
 */
export function tokenDuration(seconds: number | undefined): number {
  const duration = seconds ?? TEMPORARY_TOKEN_DURATION_SECONDS;
  if (!Number.isSafeInteger(duration) || duration < MIN_TOKEN_DURATION_SECONDS || duration > MAX_TOKEN_DURATION_SECONDS) {
    throw new UploadError(
      'INVALID_SETTINGS',
      `tokenDurationSeconds must be a whole number of seconds from ${MIN_TOKEN_DURATION_SECONDS} to ${MAX_TOKEN_DURATION_SECONDS} (STS DurationSeconds); got ${duration}.`,
    );
  }
  return duration;
}

/** The STS call of one upload token: AssumeRole of `roleArn`, else GetFederationToken. */
async function requestCredentials(sts: Pick<STSClient, 'send'>, token: TokenSettings, DurationSeconds: number, Policy: string) {
  const { AssumeRoleCommand, GetFederationTokenCommand } = await loadSts();
  if (token.roleArn) {
    return sts.send(new AssumeRoleCommand({ RoleArn: token.roleArn, RoleSessionName: UPLOAD_TOKEN_NAME, DurationSeconds, Policy }));
  }
  return sts.send(new GetFederationTokenCommand({ Name: UPLOAD_TOKEN_NAME, DurationSeconds, Policy }));
}

/**
 * An STS client with the server's credentials, at `stsEndpoint` (undefined: AWS's own), built when asked for:
 * `@aws-sdk/client-sts` is imported then (`sdk.ts`).
 */
export async function createStsClient(settings: ResolvedStorageSettings, stsEndpoint: string | undefined): Promise<STSClient> {
  return new (await loadSts()).STSClient({
    ...CLIENT_DEFAULTS,
    region: settings.region,
    endpoint: stsEndpoint,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
}

/**
 * Builds the token issuer of one handler around one long-lived STS client. With `roleArn` it calls
 * `AssumeRole`, otherwise `GetFederationToken` (AWS only; the server's credentials need
 * `sts:GetFederationToken`), both with {@link uploadTokenPolicy} and a duration of `tokenDurationSeconds`
 * (3600 seconds by default).
 *
 * With `roleArn` and `stsEndpoint` (an S3-compatible STS: radosgw, MinIO), the first token issued is used
 * once to try AssumeRole on the same role ({@link assertNoRoleChaining}); while STS grants it, no token is
 * handed out (500, logged with the trust-policy condition that closes it). The verdict is kept; a check
 * that could not reach STS runs again on the next request. Then, once per process, the token tries every
 * other role the server can list ({@link assertNoOtherRoles}; `checks.otherRoles: false` skips it: the doctor,
 * which reports them itself).
 * @throws {@link UploadError} `INVALID_SETTINGS` for a `tokenDurationSeconds` outside 900 to 129600, or a
 *   role that its own tokens can assume (its own or another); `INTERNAL_SERVER_ERROR` (500, logged with the STS error as
 *   `cause`, never sent to the browser) when STS fails or answers without credentials.
 */
export function createTokenIssuer(
  settings: ResolvedStorageSettings,
  token: TokenSettings,
  checks: { otherRoles?: boolean } = {},
  shared?: () => Promise<Pick<STSClient, 'send'>>,
): TokenIssuer {
  const DurationSeconds = tokenDuration(token.tokenDurationSeconds);
  // `token.stsClient`, else the app's shared one (`shared-services.ts`), else one built on the first token.
  let sts: Pick<STSClient, 'send'> | undefined = token.stsClient;
  const stsClient = async (): Promise<Pick<STSClient, 'send'>> => (sts ??= await (shared ?? (() => createStsClient(settings, token.stsEndpoint)))());
  const { roleArn, stsEndpoint } = token;
  let chainingChecked: Promise<void> | undefined;
  const checkChaining = (policy: string, credentials: TemporaryCredentials): Promise<void> => {
    if (!roleArn || !stsEndpoint) return Promise.resolve();
    chainingChecked ??= assertNoRoleChaining({ roleArn, stsEndpoint, region: settings.region, policy }, credentials).catch(
      (error: unknown) => {
        // Only a refused configuration is remembered: an unreachable STS is asked again next time.
        if (!(error instanceof UploadError && error.code === 'INVALID_SETTINGS')) chainingChecked = undefined;
        throw error;
      },
    );
    return chainingChecked;
  };
  return async (key, notAfter = Infinity) => {
    const Policy = uploadTokenPolicy({
      bucket: settings.bucket,
      key,
      region: settings.region,
      allowObjectTagging: token.allowObjectTagging,
    });
    const issuedAt = Date.now();
    const remaining = Math.floor(notAfter - issuedAt / 1000);
    const duration = Math.max(MIN_TOKEN_DURATION_SECONDS, Math.min(DurationSeconds, remaining));
    const answer = await requestCredentials(await stsClient(), token, duration, Policy).catch((cause: unknown) => {
      throw new UploadError('INTERNAL_SERVER_ERROR', `STS ${roleArn ? 'AssumeRole' : 'GetFederationToken'} failed.`, { cause });
    });
    const credentials = toWire(answer.Credentials, issuedAt, duration);
    await checkChaining(Policy, credentials);
    // Other roles that trust the server's user (once per process; where the server can list roles).
    if (roleArn && stsEndpoint && checks.otherRoles !== false) await assertNoOtherRoles({ roleArn, stsEndpoint, region: settings.region, server: settings }, credentials);
    return credentials;
  };
}

/**
 * What a renew ticket binds: the one object key (in its bucket) that fresh credentials may write, and when
 * the upload was first prepared (seconds since the epoch): every renewal keeps it, so that write access ends
 * `UPLOAD_LIFETIME_SECONDS` after it however often the upload renews.
 */
export interface RenewTicketFields {
  bucket: string;
  key: string;
  firstIssuedAt: number;
}

function readRenewFields(fields: Record<string, unknown>): RenewTicketFields | undefined {
  const { bucket, key, firstIssuedAt } = fields;
  if (typeof bucket !== 'string' || typeof key !== 'string') return undefined;
  if (typeof firstIssuedAt !== 'number' || !Number.isSafeInteger(firstIssuedAt)) return undefined;
  return { bucket, key, firstIssuedAt };
}

/**
 * Renew tickets (`ticket` of the temporary-token answer), signed with a key derived from the server's secret
 * access key and the handler's `scope` (`handlerScope`): `_upload.renew` gets fresh credentials for the key
 * the ticket names, never another, and only from the handler that issued it.
 */
export function createRenewTickets(
  secretAccessKey: string,
  options: { scope: string; now?: (() => number) | undefined },
): Tickets<RenewTicketFields> {
  return createTickets(secretAccessKey, 'renew', readRenewFields, options);
}
