/// <reference path="./s3rver.d.ts" />
import type { S3rverMiddleware } from '@20minutes/s3rver';
import { corsAndSignature, requestTarget } from './request-target';

/** Marks the continuation tokens this package makes (s3rver's own cannot be made here: see below). */
const TOKEN_PREFIX = 'upbeam-local:';

interface ListResult {
  objects: { key: string }[];
  isTruncated?: boolean;
}

interface Store {
  listObjects(bucket: string, options: object): Promise<ListResult>;
}

/**
 * ListObjectsV2 in pages. s3rver 4.0.4 makes the `NextContinuationToken` of a truncated page with a DES
 * cipher, which OpenSSL 3 (Node 17 and later) no longer has: every page that is not the last one answered
 * 500 InternalError (`ERR_OSSL_EVP_UNSUPPORTED`), so no client could list more than `MaxKeys` objects. This
 * hands s3rver a store that reports every page as the last, then marks the answer truncated with a token of
 * its own (the page's last key, base64url), which it reads back as `start-after`.
 */
export function listPages(): S3rverMiddleware {
  return async function listPagesV2(ctx, next) {
    const target = requestTarget(ctx.path);
    if (ctx.method !== 'GET' || !target || target.key !== undefined || ctx.query['list-type'] !== '2') return next();
    const token = ctx.query['continuation-token'];
    if (typeof token === 'string' && token !== '') {
      const decoded = Buffer.from(token, 'base64url').toString('utf8');
      if (decoded.startsWith(TOKEN_PREFIX)) {
        // The signature covers the query this changes: checked first, as s3rver would (`/{bucket}/` calls
        // were checked already, by `bucket-slash.ts`).
        if (ctx.get('authorization')) {
          await corsAndSignature(ctx, target);
          delete ctx.headers.authorization;
        }
        const { 'continuation-token': _token, ...query } = ctx.query;
        ctx.query = { ...query, 'start-after': decoded.slice(TOKEN_PREFIX.length) };
      }
    }
    const store = (ctx as unknown as { store: Store }).store;
    let truncatedAfter: string | undefined;
    (ctx as unknown as { store: Store }).store = Object.assign(Object.create(store) as Store, {
      async listObjects(bucket: string, options: object) {
        const result = await store.listObjects(bucket, options);
        if (result.isTruncated) truncatedAfter = result.objects[result.objects.length - 1]?.key;
        return { ...result, isTruncated: false };
      },
    });
    await next();
    const body = ctx.body as { ListBucketResult?: Record<string, unknown> } | undefined;
    if (truncatedAfter !== undefined && body?.ListBucketResult) {
      body.ListBucketResult.IsTruncated = true;
      body.ListBucketResult.NextContinuationToken = Buffer.from(`${TOKEN_PREFIX}${truncatedAfter}`).toString('base64url');
      if (typeof token === 'string') body.ListBucketResult.ContinuationToken = token;
    }
  };
}
