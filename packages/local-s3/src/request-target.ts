/// <reference path="./s3rver.d.ts" />
import type { S3rverContext } from '@20minutes/s3rver';
import { authentication, cors, S3Error } from './s3rver-internals';

/** Bucket and object key of a path-style request (`/{bucket}/{key}`); `key` is unset for a bucket call. */
export interface RequestTarget {
  bucket: string;
  key?: string;
  /** The path ends in `/` after the bucket (`/{bucket}/`): how the AWS SDK addresses bucket calls. */
  bucketSlash: boolean;
}

/** Reads the bucket and key of a path-style request; undefined for `/` (the service). */
export function requestTarget(path: string): RequestTarget | undefined {
  const match = /^\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (!match) return undefined;
  const [, bucket, rest] = match;
  if (rest === undefined || rest === '') return { bucket: decodeURIComponent(bucket!), bucketSlash: rest === '' };
  return { bucket: decodeURIComponent(bucket!), key: decodeURIComponent(rest), bucketSlash: false };
}

const checkSignature = authentication();
const setCorsHeaders = cors();
const done = async () => {};

/**
 * Sets the bucket's CORS headers, then checks the request's signature the way s3rver does for every
 * request. A bucket call addressed as `/{bucket}/` is checked against that path: s3rver 4.0.4 checks it
 * against `/{bucket}` and refuses every such call with SignatureDoesNotMatch, although the AWS SDK signs
 * the path it sends.
 *
 * @throws s3rver's `S3Error` (SignatureDoesNotMatch, InvalidAccessKeyId, ...), rendered as S3's XML error.
 */
export async function corsAndSignature(ctx: S3rverContext, target: RequestTarget): Promise<void> {
  const params = ctx.params;
  try {
    ctx.params = { bucket: target.bucket };
    await setCorsHeaders(ctx, done);
    ctx.params = { bucket: target.bucketSlash ? `${target.bucket}/` : target.bucket, key: target.key };
    await checkSignature(ctx, done);
  } finally {
    ctx.params = params;
  }
}

/**
 * Sets the bucket's CORS headers on the answer, as s3rver does for the requests it answers: a refusal thrown
 * before s3rver's router keeps them (s3rver's error answer keeps `Access-Control-*`), so that a page reads
 * the refusal instead of a network error.
 */
export async function corsHeaders(ctx: S3rverContext, target: RequestTarget): Promise<void> {
  const params = ctx.params;
  try {
    ctx.params = { bucket: target.bucket };
    await setCorsHeaders(ctx, done);
  } finally {
    ctx.params = params;
  }
}

/** The s3rver error to throw for a request on an upload that does not exist (any more). */
export function noSuchUpload(uploadId: string): Error {
  return new S3Error(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    { UploadId: uploadId },
  );
}
