/// <reference path="./s3rver.d.ts" />
/**
 * Bucket names and object keys are names, never paths. s3rver 4.0.4 keeps an object in the file
 * `{directory}/{bucket}/{key segments...}`, joined as a path: a `..` segment (raw, `%2e%2e`, or behind an
 * encoded slash `..%2F`) read, wrote and deleted files of another bucket or beside `directory`, a bucket named
 * `..` was the folder around `directory`, an inner empty or `.` segment named another key's file (`a//b` was
 * `a/b`), and deleting the last object under a leading empty segment (`/{bucket}//x`) removed the bucket.
 * S3 stores such keys as they are; this server cannot, so it refuses them, wherever a name comes from: the
 * path, `x-amz-copy-source`, a form POST's `key` field, a multi-object delete's keys.
 */
import type { S3rverMiddleware } from '@20minutes/s3rver';
import { S3Error } from './s3rver-internals';

/** Longest object key S3 accepts, in bytes of UTF-8 (S3 answers `KeyTooLongError` beyond). */
const MAX_KEY_BYTES = 1024;
/** NUL and the other C0 controls, which no file name on disk holds as given. */
const CONTROL = /[\u0000-\u001f]/;

/**
 * Throws S3's `InvalidBucketName` (400) unless `bucket` is one folder name of `directory`: not empty, `.` or
 * `..`, without `/`, `\` or a control character. (S3's own naming rules are checked at CreateBucket.)
 */
export function assertBucketName(bucket: string): void {
  if (bucket === '' || bucket === '.' || bucket === '..' || /[/\\]/.test(bucket) || CONTROL.test(bucket)) {
    throw new S3Error('InvalidBucketName', 'The specified bucket is not valid.');
  }
}

/**
 * Throws unless local-s3 can keep `key` as the name it is: `KeyTooLongError` (400) over 1024 bytes of UTF-8,
 * as S3 does; `InvalidArgument` (400) for a `.` or `..` segment, an empty segment but a last one (`photos/`, a
 * folder marker, is kept), or a NUL. S3 would store those keys literally; here they would name another file.
 */
export function assertObjectKey(key: string): void {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error('KeyTooLongError', 'Your key is too long');
  const segments = key.split('/');
  const pathLike = segments.some((segment, index) => segment === '.' || segment === '..' || (segment === '' && index < segments.length - 1));
  if (pathLike || key.includes('\u0000')) {
    throw new S3Error(
      'InvalidArgument',
      'local-s3 keeps objects as files: it refuses a key with a "." or ".." segment, an empty segment (but a last one) or a NUL, which S3 would store as it is.',
      { ArgumentName: 'key' },
    );
  }
}

/** `decodeURIComponent`, or the text as it is where it is not valid percent-encoding (as s3rver's router). */
function decoded(text: string, decode: (text: string) => string = decodeURIComponent): string {
  try {
    return decode(text);
  } catch {
    return text;
  }
}

/**
 * The middleware, first of all: refuses a request whose path (`/{bucket}/{key}`, decoded as s3rver's router
 * decodes it) or `x-amz-copy-source` (`{bucket}/{key}`, decoded with `decodeURI` as s3rver reads it) names a
 * bucket or key that {@link assertBucketName} or {@link assertObjectKey} refuses.
 */
export function keyCheck(): S3rverMiddleware {
  return async function keyCheck(ctx, next) {
    const match = /^\/([^/]+)(?:\/(.*))?$/.exec(ctx.path);
    if (match) {
      assertBucketName(decoded(match[1]!));
      if (match[2]) assertObjectKey(decoded(match[2]));
    }
    const source = ctx.get('x-amz-copy-source');
    if (source !== '') {
      const [bucket = '', ...key] = decoded(source, decodeURI).replace(/^\//, '').split('/');
      assertBucketName(bucket);
      assertObjectKey(key.join('/'));
    }
    return next();
  };
}

/** The two calls through which s3rver's filesystem store turns every bucket and key into a path. */
export interface FilesystemPaths {
  getBucketPath(bucket: string): string;
  getResourcePath(bucket: string, key?: string, resource?: string): string;
}

/**
 * Makes s3rver's store refuse (as {@link keyCheck}) every bucket and key it is asked to turn into a path:
 * this also covers the names a request carries in its body (a form POST's `key`, DeleteObjects' keys).
 */
export function guardStorePaths(store: FilesystemPaths): void {
  const bucketPath = store.getBucketPath.bind(store);
  const resourcePath = store.getResourcePath.bind(store);
  store.getBucketPath = (bucket) => {
    assertBucketName(bucket);
    return bucketPath(bucket);
  };
  store.getResourcePath = (bucket, key, resource) => {
    assertBucketName(bucket);
    if (key) assertObjectKey(key);
    return resourcePath(bucket, key, resource);
  };
}
