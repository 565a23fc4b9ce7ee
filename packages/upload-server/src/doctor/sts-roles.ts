import type { TemporaryCredentials } from '@upbeam/upload-protocol';
import { listRoleArns, rolesTokenCanAssume } from '../assumable-roles';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

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
  const place = { region: settings.region, stsEndpoint: input.stsEndpoint };
  let roles: string[];
  try {
    roles = await listRoleArns(place, { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey });
  } catch (error) {
    return {
      check,
      status: 'warn',
      message:
        `Could not list the roles (IAM ListRoles: ${httpStatus(error) ?? 'no status'} ${errorName(error)}), so only roleArn was checked ` +
        '(by the handler, with its first token). Give the server\'s user iam:ListRoles (radosgw: the "roles=read" capability) ' +
        'to check every role an upload token could assume: the handler then checks them too, once per process.',
    };
  }
  const open = await rolesTokenCanAssume(place, await input.token(), roles);
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
