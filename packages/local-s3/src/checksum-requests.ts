/// <reference path="./s3rver.d.ts" />
/**
 * S3's additional checksums and conditional writes on PutObject, UploadPart, HeadObject and GetObject, which
 * s3rver 4.0.4 ignores:
 *
 * - PutObject and UploadPart verify their `x-amz-checksum-crc32 | -crc32c | -crc64nvme | -sha1 | -sha256`
 *   and `Content-MD5` over the body as it arrives: a mismatch is refused (400 `BadDigest`) with nothing
 *   stored, a malformed value too (400 `InvalidRequest`, `InvalidDigest` for `Content-MD5`). The answer
 *   carries the value (`x-amz-checksum-crc32c: ...`), as S3's.
 * - An UploadPart of an upload created with a checksum algorithm must carry that algorithm's value (a
 *   `COMPOSITE` upload; a `FULL_OBJECT` one may leave it out: it is computed), and no other algorithm's.
 * - PutObject with `If-None-Match: *` is refused (412 `PreconditionFailed`) when the key holds an object once
 *   the body has arrived; `If-Match: {etag}` when it holds another (404 `NoSuchKey` when none).
 * - The checksum is kept with the object (and the part); HeadObject and GetObject with
 *   `x-amz-checksum-mode: ENABLED` answer it (`x-amz-checksum-{algorithm}`, `x-amz-checksum-type`).
 */
import { join } from 'node:path';
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import { checksumHeader, givenChecksum, givenContentMd5, invalidRequest, invalidValue, type S3ChecksumAlgorithm } from './checksum-algorithms';
import { readObjectChecksum, readUploadChecksum } from './checksum-files';
import { corsHeaders, requestTarget, type RequestTarget } from './request-target';
import { writeChecks, writeConditions, type WriteChecks } from './write-checks';

/** s3rver's upload ids: 16 random bytes in hex (anything else never names a path). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** True for a request on the object itself: no sub-resource (`?tagging`, `?acl`), a presigned query aside. */
const onObject = (ctx: S3rverContext) =>
  Object.entries(ctx.query).every(
    ([name, value]) => name.toLowerCase().startsWith('x-amz-') || (name === 'x-id' && (value === 'PutObject' || value === 'GetObject')),
  );

/**
 * The request's headers, with the checksum headers a presigned URL carries in its query (the AWS SDK's
 * presigner hoists `x-amz-*` headers into the query unless told not to; S3 reads them there as headers):
 * a PUT's `x-amz-checksum-crc32c` (etc.), a GET's `x-amz-checksum-mode`.
 */
function requestHeaders(ctx: S3rverContext): S3rverContext['headers'] {
  if (ctx.query['X-Amz-Signature'] === undefined) return ctx.headers;
  const hoisted = Object.entries(ctx.query)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .filter(([name]) => name.startsWith('x-amz-checksum-') || name === 'x-amz-sdk-checksum-algorithm');
  return { ...Object.fromEntries(hoisted), ...ctx.headers };
}

/** The middleware; everything but PutObject, UploadPart, HeadObject and GetObject goes on untouched. */
export function checksumRequests(): S3rverMiddleware {
  return async function checksumRequest(ctx, next) {
    const target = requestTarget(ctx.path);
    if (target?.key === undefined || ctx.get('x-amz-copy-source') !== '' || !['PUT', 'GET', 'HEAD'].includes(ctx.method)) return next();
    // A refusal of a checksum header is thrown here, before s3rver's router sets the CORS headers.
    await corsHeaders(ctx, target);
    const { uploadId, partNumber } = ctx.query;
    if (ctx.method === 'PUT' && typeof uploadId === 'string' && typeof partNumber === 'string') {
      return uploadPart(ctx, next, ctx.store.getResourcePath(target.bucket, undefined, 'uploads'), uploadId);
    }
    if (!onObject(ctx)) return next();
    if (ctx.method === 'PUT') return putObject(ctx, next);
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return readObject(ctx, next, target);
    return next();
  };
}

/** Runs s3rver's handler with the write's checks; then answers the checksum computed, as S3 does. */
async function runWrite(ctx: S3rverContext, next: () => Promise<void>, checks: WriteChecks, answer: S3ChecksumAlgorithm | undefined) {
  await writeChecks.run(checks, next);
  const value = answer === undefined ? undefined : checks.computed?.[answer];
  if (value !== undefined) ctx.set(checksumHeader(answer!), value);
}

async function putObject(ctx: S3rverContext, next: () => Promise<void>): Promise<void> {
  const headers = requestHeaders(ctx);
  const given = givenChecksum(headers);
  const checks: WriteChecks = {
    given,
    contentMd5: givenContentMd5(headers),
    compute: given ? [given.algorithm] : [],
    keep: given && { algorithm: given.algorithm, type: 'FULL_OBJECT' },
    ...writeConditions(ctx.headers),
  };
  await runWrite(ctx, next, checks, given?.algorithm);
  if (given) ctx.set('x-amz-checksum-type', 'FULL_OBJECT');
}

async function uploadPart(ctx: S3rverContext, next: () => Promise<void>, uploadsFolder: string, uploadId: string): Promise<void> {
  const headers = requestHeaders(ctx);
  const given = givenChecksum(headers);
  const upload = UPLOAD_ID.test(uploadId) ? await readUploadChecksum(join(uploadsFolder, uploadId)) : undefined;
  if (upload && (given ? given.algorithm !== upload.algorithm : upload.type === 'COMPOSITE')) {
    // A FULL_OBJECT upload's part may come without its checksum: storage computes it (S3 does the same).
    throw invalidRequest(
      `Checksum Type mismatch occurred, expected checksum Type: ${upload.algorithm.toLowerCase()}, actual checksum Type: ${given?.algorithm.toLowerCase() ?? 'null'}`,
    );
  }
  const algorithm = upload?.algorithm ?? given?.algorithm;
  const checks: WriteChecks = { given, contentMd5: givenContentMd5(headers), compute: algorithm ? [algorithm] : [] };
  await runWrite(ctx, next, checks, algorithm);
}

/** HeadObject and GetObject: with `x-amz-checksum-mode: ENABLED`, the object's checksum in the answer. */
async function readObject(ctx: S3rverContext, next: () => Promise<void>, target: RequestTarget): Promise<void> {
  const mode = requestHeaders(ctx)['x-amz-checksum-mode'] ?? '';
  if (mode !== '' && mode !== 'ENABLED') throw invalidValue('x-amz-checksum-mode');
  await next();
  // The whole object only: a range's bytes do not have the object's checksum (S3 answers none either).
  if (mode !== 'ENABLED' || ctx.status !== 200) return;
  const checksum = await readObjectChecksum(ctx.store.getResourcePath(target.bucket, target.key, 'metadata.json'));
  if (checksum === undefined) return;
  ctx.set(checksumHeader(checksum.algorithm), checksum.value);
  ctx.set('x-amz-checksum-type', checksum.type);
}
