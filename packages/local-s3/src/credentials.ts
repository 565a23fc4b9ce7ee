import { randomBytes } from 'node:crypto';
import { accounts } from './s3rver-internals';
import type { Policy } from './session-policy';

/** Access key id and secret that s3rver accepts: the server's own (long-term) credentials. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Temporary credentials, in the shape STS returns them. */
export interface LocalCredentials {
  AccessKeyId: string;
  SecretAccessKey: string;
  SessionToken: string;
  Expiration: Date;
}

/** What the stand-in knows of a temporary key pair it issued (session-access.ts enforces it). */
export interface Session {
  sessionToken: string;
  issuedAt: Date;
  /** `FederatedUser` (GetFederationToken) or `AssumedRole` (AssumeRole): the `aws:PrincipalType` key. */
  principalType: 'FederatedUser' | 'AssumedRole';
  /**
   * The session policy every request with these credentials must pass; undefined: the server's full access
   * (an AssumeRole without `Policy`: the role here is the server itself).
   */
  policy: Policy | undefined;
}

/** Temporary credentials handed out, by key id, until they expire. */
const sessions = new Map<string, Session>();

/** True for a key id this package issued as temporary credentials (not the server's own). */
export function isTemporaryKey(accessKeyId: string): boolean {
  return sessions.has(accessKeyId);
}

/** The session of a temporary key id this package issued (undefined for the server's own, or an expired one). */
export function sessionOf(accessKeyId: string): Session | undefined {
  return sessions.get(accessKeyId);
}

/**
 * A fresh key pair registered in s3rver, valid `durationSeconds`: s3rver accepts its signatures until then
 * and refuses them after (InvalidAccessKeyId), as S3 refuses expired credentials (ExpiredToken). Requests
 * signed with it must carry its session token and pass `session.policy` (session-access.ts).
 */
export function issueLocalCredentials(
  durationSeconds: number,
  session: Pick<Session, 'policy' | 'principalType'> = { policy: undefined, principalType: 'AssumedRole' },
): LocalCredentials {
  const AccessKeyId = `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`;
  const SecretAccessKey = randomBytes(24).toString('base64url');
  const SessionToken = `local-${randomBytes(16).toString('base64url')}`;
  accounts.DUMMY_ACCOUNT.createKeyPair(AccessKeyId, SecretAccessKey);
  sessions.set(AccessKeyId, { ...session, sessionToken: SessionToken, issuedAt: new Date() });
  // unref: an issued key never keeps the process alive.
  setTimeout(() => revoke(AccessKeyId), durationSeconds * 1000).unref();
  return { AccessKeyId, SecretAccessKey, SessionToken, Expiration: new Date(Date.now() + durationSeconds * 1000) };
}

function revoke(accessKeyId: string): void {
  accounts.DUMMY_ACCOUNT.revokeAccessKey(accessKeyId);
  sessions.delete(accessKeyId);
}

/** The secret of a key pair s3rver accepts, or undefined. */
export function secretOf(accessKeyId: string): string | undefined {
  return accounts.registry.get(accessKeyId)?.accessKeys.get(accessKeyId);
}
