/// <reference path="./s3rver.d.ts" />
import type { S3rverMiddleware } from '@20minutes/s3rver';
import { corsAndSignature, requestTarget } from './request-target';

/**
 * Bucket calls (HeadBucket, ListObjectsV2, GetBucketCors, ...) as the AWS SDK sends them, to
 * `/{bucket}/`: s3rver 4.0.4 checks their signature against `/{bucket}` and refuses every one with
 * SignatureDoesNotMatch. This checks the signature against the path sent, then hands the request on as
 * already checked (s3rver lets a request without an `Authorization` header through).
 */
export function bucketSlashSignature(): S3rverMiddleware {
  return async function bucketSlash(ctx, next) {
    const target = requestTarget(ctx.path);
    if (target?.bucketSlash && ctx.method !== 'OPTIONS' && ctx.get('authorization')) {
      await corsAndSignature(ctx, target);
      delete ctx.headers.authorization;
    }
    return next();
  };
}
