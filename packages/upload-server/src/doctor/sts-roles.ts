import { IAMClient, ListRolesCommand, type Role } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { TemporaryCredentials } from '@upbeam/upload-protocol';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/** A session policy that allows nothing: a probe that STS grants gets no rights at all. */
const DENY_ALL = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Deny', Action: '*', Resource: '*' }] });

/** Most roles the check lists (pages of 100), so that a large account does not make it run for minutes. */
const MAX_ROLES = 1000;

/**
 * Every role an upload token can assume. A browser holds a temporary token whose session policy covers
 * S3 only; on an S3-compatible STS (radosgw 16.2, measured) session policies are not applied to STS calls,
 * so the token can call AssumeRole on any role whose trust policy names the server's user without refusing
 * role sessions (`Null aws:TokenIssueTime`), and get that role's full rights. The handler refuses tokens when
 * `roleArn` itself is open; this check tries every role the server's credentials can list (IAM ListRoles),
 * with a freshly issued upload token and a session policy that allows nothing.
 *
 * What it cannot check: roles it cannot list (no `iam:ListRoles`, or radosgw's `roles=read` capability),
 * roles of other tenants or accounts, and roles created later. On AWS an upload token (a federation token,
 * or a role session with an S3-only session policy) cannot call AssumeRole, and the check only confirms it.
 */
export async function checkStsRoles(
  context: CheckContext,
  input: { stsEndpoint: string | undefined; token: () => Promise<TemporaryCredentials> },
): Promise<Finding> {
  const check = 'sts-roles';
  const { settings } = context;
  const credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
  const iam = new IAMClient({ region: settings.region, endpoint: input.stsEndpoint, credentials, maxAttempts: 1 });
  let roles: Role[];
  try {
    roles = await listRoles(iam);
  } catch (error) {
    return {
      check,
      status: 'warn',
      message:
        `Could not list the roles (IAM ListRoles: ${httpStatus(error) ?? 'no status'} ${errorName(error)}), so only roleArn was checked ` +
        '(by the handler, with its first token). Give the server\'s user iam:ListRoles (radosgw: the "roles=read" capability) ' +
        'to check every role an upload token could assume.',
    };
  } finally {
    iam.destroy();
  }
  const token = await input.token();
  const sts = new STSClient({
    region: settings.region,
    endpoint: input.stsEndpoint,
    credentials: { accessKeyId: token.AccessKeyId, secretAccessKey: token.SecretAccessKey, sessionToken: token.SessionToken },
    maxAttempts: 1,
  });
  const open: string[] = [];
  try {
    for (const role of roles) {
      if (!role.Arn) continue;
      const granted = await sts
        .send(new AssumeRoleCommand({ RoleArn: role.Arn, RoleSessionName: 'upbeam-doctor-probe', DurationSeconds: 900, Policy: DENY_ALL }))
        .then(
          () => true,
          () => false,
        );
      if (granted) open.push(role.Arn);
    }
  } finally {
    sts.destroy();
  }
  if (open.length === 0) {
    return { check, status: 'ok', message: `An upload token could assume none of the ${roles.length} role(s) the server can list.` };
  }
  return {
    check,
    status: 'fail',
    message:
      `An upload token (what every browser holds) could assume ${open.length} role(s) and get their full rights: ${open.join(', ')}. ` +
      'Add the condition below to each one\'s trust policy (only long-term keys may assume it), or stop trusting the server\'s user there.',
    fix: {
      apply: 'In each role\'s trust policy (IAM UpdateAssumeRolePolicy), on the statement that allows the server\'s user sts:AssumeRole, add:',
      json: { Condition: { Null: { 'aws:TokenIssueTime': 'true' } } },
    },
  };
}

/** Every role, page by page, up to {@link MAX_ROLES}. */
async function listRoles(iam: IAMClient): Promise<Role[]> {
  const roles: Role[] = [];
  let Marker: string | undefined;
  do {
    const page = await iam.send(new ListRolesCommand({ Marker, MaxItems: 100 }));
    roles.push(...(page.Roles ?? []));
    Marker = page.IsTruncated ? page.Marker : undefined;
  } while (Marker !== undefined && roles.length < MAX_ROLES);
  return roles.slice(0, MAX_ROLES);
}
