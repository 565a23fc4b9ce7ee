import { randomBytes } from 'node:crypto';
import { accounts } from './s3rver-internals';

/** Access key id and secret that s3rver accepts: the server's own (long-term) credentials. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Temporary credentials, in the shape STS returns them. */
export interface LocalCredentials {
  AccessKeyId: string;
  SecretAccessKey: string;
  SessionToken: string;
  Expiration: Date;
}

/** Key ids handed out as temporary credentials, until they expire. */
const temporaryKeys = new Set<string>();

/** True for a key id this package issued as temporary credentials (not the server's own). */
export function isTemporaryKey(accessKeyId: string): boolean {
  return temporaryKeys.has(accessKeyId);
}

/**
 * A fresh key pair registered in s3rver, valid `durationSeconds`: s3rver accepts its signatures until then
 * and refuses them after (InvalidAccessKeyId), as S3 refuses expired credentials (ExpiredToken). The session
 * token is random; s3rver never checks it.
 */
export function issueLocalCredentials(durationSeconds: number): LocalCredentials {
  const AccessKeyId = `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`;
  const SecretAccessKey = randomBytes(24).toString('base64url');
  accounts.DUMMY_ACCOUNT.createKeyPair(AccessKeyId, SecretAccessKey);
  temporaryKeys.add(AccessKeyId);
  // unref: an issued key never keeps the process alive.
  setTimeout(() => revoke(AccessKeyId), durationSeconds * 1000).unref();
  return {
    AccessKeyId,
    SecretAccessKey,
    SessionToken: `local-${randomBytes(16).toString('base64url')}`,
    Expiration: new Date(Date.now() + durationSeconds * 1000),
  };
}

function revoke(accessKeyId: string): void {
  accounts.DUMMY_ACCOUNT.revokeAccessKey(accessKeyId);
  temporaryKeys.delete(accessKeyId);
}

/** The secret of a key pair s3rver accepts, or undefined. */
export function secretOf(accessKeyId: string): string | undefined {
  return accounts.registry.get(accessKeyId)?.accessKeys.get(accessKeyId);
}
