import { createPresigner, createUrlSigner } from '../presign';
import { unsignedHeaderMessage } from '../unsigned-header-gate';
import { probeUnsignedHeaders, type UnsignedHeaderVerdict } from '../unsigned-header-probe';
import type { CheckContext, Finding } from './finding';
import { OBJECT_LOCK_CONDITION_KEYS } from '../temporary-token';

/**
 * Canned ACLs a bucket policy refuses on PutObject (`s3:x-amz-acl`): those that open an object to others.
 */
const PUBLIC_ACLS = ['public-read', 'public-read-write', 'authenticated-read'];

/** The request headers whose presence a bucket policy refuses on PutObject (condition keys `s3:{header}`). */
const REFUSED_HEADERS = [
  'x-amz-copy-source',
  'x-amz-grant-read',
  'x-amz-grant-write',
  'x-amz-grant-read-acp',
  'x-amz-grant-write-acp',
  'x-amz-grant-full-control',
];

/**
 * The bucket policy for storage that applies headers a presigned URL did not sign (Ceph radosgw, and so
 * DigitalOcean Spaces; s3rver): PutObject is refused, for everyone, the server's own user included, when it
 * carries `x-amz-copy-source` (a presigned PUT turned into a CopyObject that reads with the signer's rights),
 * a public canned ACL, or an ACL grant. Presence is matched with `StringLike "*"`, which never matches an
 * absent header: radosgw 16.2 inverts the `Null` operator. The server never copies objects, so nothing it does
 * is refused. Measured on radosgw 16.2 (`test/curl-attacks.test.ts`).
 *
 * It also refuses a PutObject with any object-lock header (`s3:object-lock-mode`, `-retain-until-date`,
 * `-legal-hold`: AWS S3's condition keys, which MinIO evaluates too), which would make the object undeletable
 * (the server sets no lock). Radosgw 16.2 evaluates none of them, in a bucket policy or a session policy
 * (measured, `test/object-lock-radosgw.test.ts`): there, only a bucket without object lock refuses lock headers
 * (400), and the handler refuses presigned URLs and upload tokens on a bucket with it.
 */
export function unsignedHeaderBucketPolicy(bucket: string): Record<string, unknown> {
  const deny = (Sid: string, Condition: Record<string, Record<string, string | string[]>>) => ({
    Sid,
    Effect: 'Deny',
    Principal: '*',
    Action: 's3:PutObject',
    Resource: `arn:aws:s3:::${bucket}/*`,
    Condition,
  });
  const sid = (header: string) =>
    `No${header
      .replace(/^x-amz-/, '')
      .split('-')
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join('')}`;
  return {
    Version: '2012-10-17',
    Statement: [
      deny('NoPublicCannedAcl', { StringEquals: { 's3:x-amz-acl': PUBLIC_ACLS } }),
      ...REFUSED_HEADERS.map((header) => deny(sid(header), { StringLike: { [`s3:${header}`]: '*' } })),
      ...OBJECT_LOCK_CONDITION_KEYS.map((key) => deny(sid(key.replace(/^s3:/, '')), { StringLike: { [key]: '*' } })),
    ],
  };
}

/**
 * The attack of a browser on a presigned PUT, made once with the handler's own probe
 * ({@link probeUnsignedHeaders}, the one the handler runs before its first presigned URL): a URL signed for
 * another key under `keyPrefix` is sent with an added, unsigned `x-amz-copy-source` naming a canary object,
 * and one with an added `x-amz-object-lock-legal-hold: ON`. Storage that refuses both (AWS S3: 403, unsigned
 * `x-amz-*` headers; radosgw with {@link unsignedHeaderBucketPolicy}: 403; local-s3: 403; a bucket without
 * object lock: 400 to the hold) is `ok`; storage that copies the canary or holds the object is `fail`, with
 * the bucket policy as the fix: the handler refuses presigned URLs there. Everything written is deleted. Takes
 * a PutObject, two presigned PUTs and a DeleteObject, plus a HEAD and a DeleteObject for each PUT storage took.
 */
export async function checkPresignedHeaders(context: CheckContext, keyPrefix: string): Promise<Finding> {
  const check = 'presigned-headers';
  const { settings, s3 } = context;
  const Bucket = settings.bucket;
  const client = async () => s3;
  const sign = createUrlSigner(settings, client);
  if (!sign) {
    return { check, status: 'ok', message: 'An access-point ARN is AWS S3, which refuses unsigned x-amz-* headers on presigned requests (403).' };
  }
  let verdict: UnsignedHeaderVerdict;
  try {
    verdict = await probeUnsignedHeaders({ bucket: Bucket, keyPrefix, presign: createPresigner(settings, client), sign });
  } catch (error) {
    return {
      check,
      status: 'warn',
      message: `Could not try a presigned PUT with an added x-amz-copy-source (${(error as Error).message}): the check needs s3:PutObject, s3:GetObject and s3:DeleteObject under "${keyPrefix}".`,
    };
  }
  if (!verdict.copies && !verdict.locks) {
    return {
      check,
      status: 'ok',
      message: `Storage refused a presigned PUT with an added x-amz-copy-source (${verdict.copyStatus}) and one with an added object-lock legal hold (${verdict.lockStatus}): a browser cannot copy other objects or lock its own through it.`,
    };
  }
  return {
    check,
    status: 'fail',
    message:
      `${unsignedHeaderMessage(Bucket, verdict)} Apply this bucket policy (it refuses such PutObjects, public ACLs and grants ` +
      'for everyone), or use storage that refuses unsigned x-amz-* headers (AWS S3).',
    fix: { apply: `PutBucketPolicy on "${Bucket}" (aws s3api put-bucket-policy --bucket ${Bucket} --policy file://policy.json), with policy.json:`, json: unsignedHeaderBucketPolicy(Bucket) },
  };
}

