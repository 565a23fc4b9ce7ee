import type { TemporaryCredentials } from '@upbeam/upload-protocol';
import { CLIENT_DEFAULTS, loadIam, loadSts } from './sdk';

/** Most roles listed (pages of 100), so that a large account does not make a check run for minutes. */
export const MAX_ROLES = 1000;

/** Roles tried at once with the token. */
const PROBE_CONCURRENCY = 8;

/** A session policy that allows nothing: a probe that STS grants gets no rights at all. */
const DENY_ALL = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Deny', Action: '*', Resource: '*' }] });

/** Where STS and IAM answer (an S3-compatible STS: radosgw, MinIO), and the region of their signatures. */
export interface StsPlace {
  region: string;
  /** Unset: the region's AWS endpoints. */
  stsEndpoint: string | undefined;
}

/**
 * The ARN of every role the credentials can list (IAM ListRoles, page by page, up to {@link MAX_ROLES}).
 * @throws The IAM error when listing is refused (no `iam:ListRoles`; radosgw: no `roles=read` capability) or
 *   IAM cannot be reached.
 */
export async function listRoleArns(place: StsPlace, credentials: { accessKeyId: string; secretAccessKey: string }): Promise<string[]> {
  const { IAMClient, ListRolesCommand } = await loadIam();
  const iam = new IAMClient({ ...CLIENT_DEFAULTS, region: place.region, endpoint: place.stsEndpoint, credentials, maxAttempts: 1 });
  const arns: string[] = [];
  try {
    let Marker: string | undefined;
    do {
      const page = await iam.send(new ListRolesCommand({ Marker, MaxItems: 100 }));
      for (const role of page.Roles ?? []) if (role.Arn) arns.push(role.Arn);
      Marker = page.IsTruncated ? page.Marker : undefined;
    } while (Marker !== undefined && arns.length < MAX_ROLES);
  } finally {
    iam.destroy();
  }
  return arns.slice(0, MAX_ROLES);
}

/**
 * An STS client that calls as an upload token would (its credentials, one attempt): the checks that try what
 * a browser holding the token could do with STS. `destroy()` it after use.
 */
export async function tokenStsClient(place: StsPlace, token: TemporaryCredentials) {
  const { STSClient } = await loadSts();
  return new STSClient({
    ...CLIENT_DEFAULTS,
    region: place.region,
    endpoint: place.stsEndpoint,
    credentials: { accessKeyId: token.AccessKeyId, secretAccessKey: token.SecretAccessKey, sessionToken: token.SessionToken },
    maxAttempts: 1,
  });
}

/**
 * The roles of `roleArns` that an upload token can assume: STS `AssumeRole` of each with the token, as a browser
 * could, with a session policy that allows nothing (a granted probe gets no rights). On an S3-compatible STS
 * (radosgw 16.2, measured) session policies do not apply to STS calls and a role session passes a trust policy
 * that names the user who created it, so only each role's trust policy can refuse (`Null aws:TokenIssueTime`).
 * Any refusal (an error of any kind) counts as not assumable. Takes one STS call per role, 8 at a time.
 */
export async function rolesTokenCanAssume(place: StsPlace, token: TemporaryCredentials, roleArns: string[]): Promise<string[]> {
  const { AssumeRoleCommand } = await loadSts();
  const sts = await tokenStsClient(place, token);
  const open: string[] = [];
  try {
    for (let start = 0; start < roleArns.length; start += PROBE_CONCURRENCY) {
      const batch = roleArns.slice(start, start + PROBE_CONCURRENCY);
      const granted = await Promise.all(
        batch.map((RoleArn) =>
          sts.send(new AssumeRoleCommand({ RoleArn, RoleSessionName: 'upbeam-role-probe', DurationSeconds: 900, Policy: DENY_ALL })).then(
            () => true,
            () => false,
          ),
        ),
      );
      batch.forEach((arn, index) => granted[index] && open.push(arn));
    }
  } finally {
    sts.destroy();
  }
  return open;
}
