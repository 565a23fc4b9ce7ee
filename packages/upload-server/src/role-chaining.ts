import type { TemporaryCredentials } from '@upbeam/upload-protocol';
import { listRoleArns, rolesTokenCanAssume, tokenStsClient } from './assumable-roles';
import { UploadError } from './errors';
import { loadSts } from './sdk';

/**
 * The trust-policy condition that keeps an upload token from assuming its role again: only long-term
 * credentials (an IAM user's keys, which carry no `aws:TokenIssueTime`) may assume the role. Measured on
 * radosgw 16.2 (`/work/shared/S3-TESTING.md`, "STS on radosgw"): it refuses the token's AssumeRole (403)
 * and keeps the server's own working. On AWS, the same condition blocks role chaining.
 */
export const NO_ROLE_CHAINING_CONDITION = { Null: { 'aws:TokenIssueTime': 'true' } } as const;

/** What the check needs: where STS is, the role, the session policy the server asks for, the region. */
export interface RoleChainingCheck {
  roleArn: string;
  stsEndpoint: string;
  region: string;
  /** The session policy of the server's own AssumeRole (the probe asks for no more). */
  policy: string;
}

/** How long the probe's own session lasts, in seconds (STS's minimum): it is never used. */
const PROBE_DURATION_SECONDS = 900;

/** The message of a refused configuration: what is wrong and the trust-policy condition that closes it. */
export const ROLE_CHAINING_MESSAGE =
  'Upbeam: an upload token can assume roleArn again (STS AssumeRole with the token answered 200), so the ' +
  'browser could obtain the role\'s full rights: radosgw does not apply session policies to STS calls. Add ' +
  '"Condition": {"Null": {"aws:TokenIssueTime": "true"}} to the role\'s trust policy (only long-term keys may ' +
  'assume it), or use the presigned strategy. Temporary-token answers are refused until then.';

/**
 * Tries, with a freshly issued upload token, what a browser could: STS `AssumeRole` on the same role. An
 * S3-compatible STS (radosgw 16.2, measured) does not apply the token's session policy to STS calls, so
 * only the role's trust policy can refuse it. On AWS the session policy (S3 actions only) refuses it.
 *
 * Resolves when STS refuses (any 4xx answer). Rejects with {@link UploadError} `INVALID_SETTINGS` (500,
 * logged; {@link ROLE_CHAINING_MESSAGE}) when STS grants it; with the STS error (wrapped, 500) when STS
 * cannot be reached.
 */
export async function assertNoRoleChaining(check: RoleChainingCheck, token: TemporaryCredentials): Promise<void> {
  const { AssumeRoleCommand } = await loadSts();
  const sts = await tokenStsClient(check, token);
  try {
    await sts.send(
      new AssumeRoleCommand({
        RoleArn: check.roleArn,
        RoleSessionName: 'upbeam-role-chaining-check',
        DurationSeconds: PROBE_DURATION_SECONDS,
        Policy: check.policy,
      }),
    );
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== undefined && status >= 400 && status < 500) return;
    throw new UploadError('INTERNAL_SERVER_ERROR', 'STS could not be asked whether an upload token can assume the role again.', {
      cause: error,
    });
  } finally {
    sts.destroy();
  }
  throw new UploadError('INVALID_SETTINGS', ROLE_CHAINING_MESSAGE);
}

/**
 * How long a refusal for other roles is kept before STS is asked again, in milliseconds: a trust policy fixed
 * meanwhile takes effect without a restart.
 */
export const OTHER_ROLES_RECHECK_MS = 60_000;

/** One verdict per process for each STS endpoint and server access key, shared by every handler and route. */
const otherRoles = new Map<string, { checked: Promise<void>; refusedAt?: number }>();

/** The message of a refused configuration: the roles an upload token could assume, and the condition that closes it. */
export function otherRolesMessage(open: string[]): string {
  return (
    `Upbeam: an upload token can assume ${open.length} other role(s) and get their full rights (STS AssumeRole with the ` +
    `token answered 200): ${open.join(', ')}. Radosgw does not apply session policies to STS calls and takes a role ` +
    "session as the user who created it, so every role whose trust policy names the server's user is open to the " +
    'browser. Add "Condition": {"Null": {"aws:TokenIssueTime": "true"}} to each one\'s trust policy, or give the server a ' +
    'user that no other role trusts. Temporary-token answers are refused until then; STS is asked again ' +
    `${OTHER_ROLES_RECHECK_MS / 1000} s after each refusal.`
  );
}

/** What the other-roles check needs: where STS and IAM are, the server's own keys, the role already checked. */
export interface OtherRolesCheck {
  roleArn: string;
  stsEndpoint: string;
  region: string;
  server: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Tries, with a freshly issued upload token, what a browser could: STS `AssumeRole` of every other role the
 * server's credentials can list (IAM ListRoles; radosgw: the `roles=read` capability), with a session policy
 * that allows nothing ({@link rolesTokenCanAssume}). Once per process for each STS endpoint and access key,
 * concurrent first tokens sharing it; a refusal is asked again after {@link OTHER_ROLES_RECHECK_MS}.
 *
 * Where the roles cannot be listed (IAM answers 4xx), the handler cannot know which roles trust its user and
 * resolves: the doctor's `sts-roles` check and the security guide say what to do there. Cost: one ListRoles
 * page per 100 roles and one AssumeRole per role, 8 at a time.
 * @throws {@link UploadError} `INVALID_SETTINGS` (500, logged; {@link otherRolesMessage}) when the token can
 *   assume a role; `INTERNAL_SERVER_ERROR` when IAM or STS cannot be reached (not kept: asked again).
 */
export function assertNoOtherRoles(check: OtherRolesCheck, token: TemporaryCredentials): Promise<void> {
  const id = `${check.stsEndpoint}\n${check.server.accessKeyId}`;
  let entry = otherRoles.get(id);
  if (entry?.refusedAt !== undefined && Date.now() - entry.refusedAt >= OTHER_ROLES_RECHECK_MS) entry = undefined;
  if (entry) return entry.checked;
  const current: { checked: Promise<void>; refusedAt?: number } = { checked: probeOtherRoles(check, token) };
  current.checked.catch((error: unknown) => {
    if (error instanceof UploadError && error.code === 'INVALID_SETTINGS') current.refusedAt = Date.now();
    else if (otherRoles.get(id) === current) otherRoles.delete(id);
  });
  otherRoles.set(id, current);
  return current.checked;
}

async function probeOtherRoles(check: OtherRolesCheck, token: TemporaryCredentials): Promise<void> {
  const place = { region: check.region, stsEndpoint: check.stsEndpoint };
  let arns: string[];
  try {
    arns = await listRoleArns(place, check.server);
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== undefined && status >= 400 && status < 500) return;
    throw new UploadError('INTERNAL_SERVER_ERROR', 'IAM could not be asked which roles an upload token could assume.', { cause: error });
  }
  const open = await rolesTokenCanAssume(place, token, arns.filter((arn) => arn !== check.roleArn));
  if (open.length > 0) throw new UploadError('INVALID_SETTINGS', otherRolesMessage(open));
}
