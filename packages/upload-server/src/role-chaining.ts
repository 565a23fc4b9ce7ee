import type { TemporaryCredentials } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import { CLIENT_DEFAULTS, loadSts } from './sdk';

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
  const { AssumeRoleCommand, STSClient } = await loadSts();
  const sts = new STSClient({
    ...CLIENT_DEFAULTS,
    region: check.region,
    endpoint: check.stsEndpoint,
    credentials: { accessKeyId: token.AccessKeyId, secretAccessKey: token.SecretAccessKey, sessionToken: token.SessionToken },
    maxAttempts: 1,
  });
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
