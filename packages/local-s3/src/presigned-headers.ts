/// <reference path="./s3rver.d.ts" />
import type { S3rverMiddleware } from '@20minutes/s3rver';
import { corsHeaders, requestTarget } from './request-target';
import { S3Error } from './s3rver-internals';

/**
 * Refuses a presigned request (SigV4 in the query: `X-Amz-Signature`) that carries an `x-amz-*` header its
 * signature does not cover, as AWS S3 does (403 AccessDenied, "There were headers present in the request
 * which were not signed"). s3rver alone applies such headers: an added `x-amz-copy-source` turned a
 * presigned PUT into a CopyObject made with the signer's rights (any object it can read, copied under the
 * signed key), and an added `x-amz-acl`, `x-amz-tagging` or `x-amz-meta-*` changed what was stored.
 */
export function presignedHeadersSigned(): S3rverMiddleware {
  return async function presignedHeaders(ctx, next) {
    const signedHeaders = ctx.query['X-Amz-Signature'] === undefined ? undefined : ctx.query['X-Amz-SignedHeaders'];
    if (typeof signedHeaders === 'string') {
      const signed = new Set(signedHeaders.toLowerCase().split(';'));
      const unsigned = Object.keys(ctx.headers).filter((name) => name.startsWith('x-amz-') && !signed.has(name));
      if (unsigned.length > 0) {
        // With the bucket's CORS headers, as S3 answers: a page reads this refusal, not a network error.
        const target = requestTarget(ctx.path);
        if (target) await corsHeaders(ctx, target);
        throw new S3Error('AccessDenied', 'There were headers present in the request which were not signed', {
          HeadersNotSigned: unsigned.join(', '),
        });
      }
    }
    return next();
  };
}
