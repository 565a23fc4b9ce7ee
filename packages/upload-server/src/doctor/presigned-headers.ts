import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { nanoid } from 'nanoid';
import { createPresigner } from '../presign';
import { errorName, httpStatus, type CheckContext, type Finding } from './finding';

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
    ],
  };
}

/** What the check sends and reads back. */
const CANARY_BODY = 'upbeam-doctor-canary';

/**
 * The attack of a browser on a presigned PUT, made once: a canary object is written with the server's
 * credentials; then a URL the handler's own presigner signed for another key under `keyPrefix` is sent with
 * an added, unsigned `x-amz-copy-source` naming the canary and an empty body. Storage that refuses it (AWS S3:
 * 403, unsigned `x-amz-*` headers; radosgw with {@link unsignedHeaderBucketPolicy}: 403; local-s3: 403) is
 * `ok`; storage that copies the canary there is `fail`, with the bucket policy as the fix. Both objects are
 * deleted. Takes two PutObject, one presigned PUT, one GetObject and two DeleteObject.
 */
export async function checkPresignedHeaders(context: CheckContext, keyPrefix: string): Promise<Finding> {
  const check = 'presigned-headers';
  const { settings, s3 } = context;
  const Bucket = settings.bucket;
  const id = nanoid(10);
  const canaryKey = `${keyPrefix}upbeam-doctor-${id}.canary`;
  const probeKey = `${keyPrefix}upbeam-doctor-${id}.txt`;
  try {
    await s3.send(new PutObjectCommand({ Bucket, Key: canaryKey, Body: CANARY_BODY, ContentType: 'text/plain' }));
    const { url, headers } = await createPresigner(settings, async () => s3)({ key: probeKey, contentType: 'text/plain', expiresIn: 60, contentLength: 0 });
    const answer = await fetch(url, {
      method: 'PUT',
      headers: { ...headers, 'x-amz-copy-source': `${Bucket}/${canaryKey}`, 'x-amz-metadata-directive': 'REPLACE' },
      body: '',
    });
    await answer.body?.cancel();
    const copied = answer.ok && (await readText(context, probeKey)) === CANARY_BODY;
    if (!copied) {
      return {
        check,
        status: 'ok',
        message: `Storage refused a presigned PUT with an added x-amz-copy-source header (${answer.status}): a browser cannot copy other objects through it.`,
      };
    }
    return {
      check,
      status: 'fail',
      message:
        'Storage applied an unsigned x-amz-copy-source header on a presigned PUT and copied another object with the ' +
        "server's rights: any browser with an upload URL can copy any object the server's credentials can read " +
        '(another user\'s upload, another app\'s secrets) to its own key. Apply this bucket policy (it refuses such ' +
        'PutObjects, public ACLs and grants for everyone), or use storage that refuses unsigned x-amz-* headers (AWS S3).',
      fix: { apply: `PutBucketPolicy on "${Bucket}" (aws s3api put-bucket-policy --bucket ${Bucket} --policy file://policy.json), with policy.json:`, json: unsignedHeaderBucketPolicy(Bucket) },
    };
  } catch (error) {
    return {
      check,
      status: 'warn',
      message: `Could not try a presigned PUT with an added x-amz-copy-source (${httpStatus(error) ?? 'no status'} ${errorName(error)}): the check needs s3:PutObject, s3:GetObject and s3:DeleteObject under "${keyPrefix}".`,
    };
  } finally {
    await Promise.allSettled([canaryKey, probeKey].map((Key) => s3.send(new DeleteObjectCommand({ Bucket, Key }))));
  }
}

/** The object's text, or undefined when there is none. */
async function readText({ settings, s3 }: CheckContext, Key: string): Promise<string | undefined> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: settings.bucket, Key }));
    return await object.Body?.transformToString();
  } catch {
    return undefined;
  }
}
