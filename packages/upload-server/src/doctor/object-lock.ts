import { bucketObjectLock, objectLockMessage, tokenLocksObject } from '../object-lock-gate';
import type { TokenIssuer } from '../temporary-token';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

/**
 * Can a browser make its upload undeletable? On a bucket without object lock storage refuses every
 * `x-amz-object-lock-*` header (radosgw and AWS S3: 400): `ok`. On a bucket with it, the upload token's attack
 * is made once when `token` is given ({@link tokenLocksObject}: a PutObject with `x-amz-object-lock-legal-hold:
 * ON`, cleaned up after): storage that applies it (Ceph radosgw 16.2, whatever the session and bucket policies
 * say) is `fail`, the handler refuses upload tokens there; refused (AWS S3, MinIO: the session policy's deny) is
 * `ok`. Without `token`, a bucket with object lock is a `warn`: the `presigned-headers` check tells whether a
 * presigned PUT can add a hold. Takes one GetObjectLockConfiguration, plus (token) one STS call and one PUT.
 */
export async function checkObjectLock(context: CheckContext, input: { keyPrefix: string; token?: TokenIssuer | undefined }): Promise<Finding> {
  const check = 'object-lock';
  const { settings, s3 } = context;
  let locked: boolean | undefined;
  try {
    locked = await bucketObjectLock(s3, settings.bucket);
  } catch (error) {
    return { check, status: 'warn', message: `Could not read the bucket's object-lock configuration (${httpStatus(error) ?? 'no status'} ${errorName(error)}).` };
  }
  if (locked === false) {
    return { check, status: 'ok', message: 'The bucket has no object lock: storage refuses object-lock headers, so no upload can be made undeletable.' };
  }
  const has = locked ? 'The bucket has object lock' : 'The server may not read the bucket\'s object-lock configuration (s3:GetBucketObjectLockConfiguration)';
  if (!input.token) {
    return {
      check,
      status: 'warn',
      message: `${has}: a browser that sets x-amz-object-lock-mode: COMPLIANCE or a legal hold makes its upload undeletable where storage applies them (radosgw 16.2 does, whatever the policies). Upload tokens were not tried (no role configured); the presigned-headers check tries a presigned PUT. Prefer a bucket without object lock for uploads.`,
    };
  }
  try {
    const locks = await tokenLocksObject(settings, { client: async () => s3, issue: input.token, keyPrefix: input.keyPrefix });
    if (locks) return { check, status: 'fail', message: objectLockMessage(settings.bucket) };
    return { check, status: 'ok', message: `${has}, and storage refused an upload token's PutObject with x-amz-object-lock-legal-hold (the session policy's deny).` };
  } catch (error) {
    return {
      check,
      status: 'warn',
      message: `${has}; an upload token's PutObject with a legal hold could not be tried (${httpStatus(error) ?? 'no status'} ${errorName(error)}).`,
    };
  }
}
