/// <reference path="./s3rver.d.ts" />
/**
 * S3's multipart checksums and conditional completion, which s3rver 4.0.4 ignores (it does not even compare
 * the parts' ETags):
 *
 * - CreateMultipartUpload with `x-amz-checksum-algorithm` (and `x-amz-checksum-type`: `COMPOSITE` for CRC32,
 *   CRC32C, SHA1, SHA256; `FULL_OBJECT` for CRC32, CRC32C, CRC64NVME, its default for CRC64NVME) keeps them
 *   with the upload and answers them; each UploadPart must then carry that algorithm's value
 *   (checksum-requests.ts).
 * - CompleteMultipartUpload refuses a part it does not hold, or whose `ETag` or `<ChecksumCRC32C>` (etc.)
 *   differs from the part stored (400 `InvalidPart`), parts out of order (`InvalidPartOrder`), and, for a
 *   composite upload, a part listed without its checksum (`InvalidRequest`). The object's checksum is the
 *   composite one (the algorithm's digest of the parts' digests joined, base64, `-{parts}`) or the full-object
 *   one (the CRC of the whole object, computed as it is assembled); an `x-amz-checksum-{algorithm}` header
 *   that differs from it is refused with 400 `BadDigest` and nothing is stored (the upload stays, as on S3).
 *   The answer carries `<ChecksumCRC64NVME>` (etc.) and `<ChecksumType>`; the object keeps them. The object's
 *   ETag is S3's multipart one: the MD5 of the parts' MD5s joined, then `-{parts}`.
 * - CompleteMultipartUpload with `If-None-Match: *` is refused (412 `PreconditionFailed`) when the key holds an
 *   object; `If-Match` as on PutObject.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import {
  algorithmNamed,
  badDigest,
  checksumElement,
  createDigest,
  givenChecksum,
  invalidRequest,
  invalidValue,
  isChecksumValue,
  S3_CHECKSUM_ALGORITHMS,
} from './checksum-algorithms';
import { readPartChecksums, readUploadChecksum, writeUploadChecksum, type ChecksumType, type UploadChecksum } from './checksum-files';
import { corsAndSignature, corsHeaders, requestTarget, type RequestTarget } from './request-target';
import { S3Error, xmlBodyParser } from './s3rver-internals';
import { writeChecks, writeConditions, type WriteChecks } from './write-checks';

/** s3rver's upload ids: 16 random bytes in hex (anything else never names a path). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Largest CompleteMultipartUpload body read: 10,000 parts of a few hundred bytes each fit in it. */
const MAX_COMPLETE_BYTES = 8 * 1024 * 1024;
const CHECKSUM_TYPES: readonly string[] = ['COMPOSITE', 'FULL_OBJECT'];

/** The middleware; everything but CreateMultipartUpload and CompleteMultipartUpload goes on untouched. */
export function multipartChecksums(): S3rverMiddleware {
  return async function multipartChecksum(ctx, next) {
    const target = requestTarget(ctx.path);
    if (ctx.method !== 'POST' || target?.key === undefined) return next();
    const uploads = ctx.store.getResourcePath(target.bucket, undefined, 'uploads');
    if ('uploads' in ctx.query) return createMultipartUpload(ctx, next, target, uploads);
    const uploadId = ctx.query.uploadId;
    if (typeof uploadId !== 'string' || !UPLOAD_ID.test(uploadId)) return next();
    return completeMultipartUpload(ctx, next, target, uploadId, join(uploads, uploadId));
  };
}

async function createMultipartUpload(ctx: S3rverContext, next: () => Promise<void>, target: RequestTarget, uploads: string): Promise<void> {
  // A refusal is thrown here, before s3rver's router sets the CORS headers.
  await corsHeaders(ctx, target);
  const algorithmHeader = ctx.get('x-amz-checksum-algorithm');
  const typeHeader = ctx.get('x-amz-checksum-type');
  if (algorithmHeader === '') {
    if (typeHeader !== '') throw invalidRequest('The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.');
    return next();
  }
  const algorithm = algorithmNamed(algorithmHeader);
  // S3's own message, which has not listed CRC64NVME since it was added.
  if (!algorithm) throw invalidRequest('Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, SHA1, SHA256]');
  const type = (typeHeader === '' ? (algorithm === 'CRC64NVME' ? 'FULL_OBJECT' : 'COMPOSITE') : typeHeader.toUpperCase()) as ChecksumType;
  if (!CHECKSUM_TYPES.includes(type)) throw invalidValue('x-amz-checksum-type');
  if (type === 'COMPOSITE' ? algorithm === 'CRC64NVME' : algorithm === 'SHA1' || algorithm === 'SHA256') {
    throw invalidRequest(`The ${type} checksum type cannot be used with the ${algorithm.toLowerCase()} checksum algorithm.`);
  }
  await next();
  const uploadId = (ctx.body as { InitiateMultipartUploadResult?: { UploadId?: unknown } } | undefined)?.InitiateMultipartUploadResult?.UploadId;
  if (typeof uploadId !== 'string') return;
  await writeUploadChecksum(join(uploads, uploadId), { algorithm, type });
  ctx.set('x-amz-checksum-algorithm', algorithm);
  ctx.set('x-amz-checksum-type', type);
}

/** Reads the request's body, up to `limit` bytes. */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new S3Error('MaxMessageLengthExceeded', 'Your request was too big.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** 400 `InvalidPart`, as S3 words it (with its two spaces). */
const invalidPart = (uploadId: string, partNumber: number, etag: string) =>
  new S3Error(
    'InvalidPart',
    "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
    { UploadId: uploadId, PartNumber: String(partNumber), ETag: etag },
  );

/** One `<Part>` of CompleteMultipartUpload's body, as s3rver's XML parser reads it. */
type ListedPart = Record<string, unknown>;

/**
 * Checks each listed part against the part stored (its ETag, its checksum); returns the stored digests of the
 * upload's algorithm (for a composite checksum) and the parts' MD5s (for the object's ETag), in part order.
 */
async function checkParts(
  listed: ListedPart[],
  folder: string,
  uploadId: string,
  upload: UploadChecksum | undefined,
): Promise<{ digests: Buffer[]; md5s: Buffer[] }> {
  const digests: Buffer[] = [];
  const md5s: Buffer[] = [];
  let previous = 0;
  for (const part of listed) {
    const number = Number(part.PartNumber);
    if (number <= previous) {
      throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order. The parts list must be specified in order by part number.');
    }
    previous = number;
    const etag = String(part.ETag ?? '').replace(/"/g, '');
    const partPath = join(folder, String(number));
    const md5 = Number.isInteger(number) ? await readFile(`${partPath}.md5`, 'utf8').catch(() => undefined) : undefined;
    if (md5 === undefined || md5.trim() !== etag) throw invalidPart(uploadId, number, etag);
    md5s.push(Buffer.from(etag, 'hex'));

    const listedChecksums = S3_CHECKSUM_ALGORITHMS.filter((algorithm) => part[checksumElement(algorithm)] !== undefined);
    const first = listedChecksums[0];
    if (listedChecksums.length > 1 || (first !== undefined && !isChecksumValue(first, String(part[checksumElement(first)])))) {
      throw new S3Error('InvalidArgument', 'Invalid Base64 or multiple checksums present in request', {
        ArgumentName: 'Checksum',
        ArgumentValue: listedChecksums.map((algorithm) => `${algorithm}:${String(part[checksumElement(algorithm)])};`).join(''),
      });
    }
    const stored = await readPartChecksums(partPath);
    if (first !== undefined) {
      if (stored[first] !== part[checksumElement(first)]) throw invalidPart(uploadId, number, etag);
    } else if (upload?.type === 'COMPOSITE') {
      throw invalidRequest(
        `The upload was created using a ${upload.algorithm.toLowerCase()} checksum. The complete request must include the checksum for each part. It was missing for part ${number} in the request.`,
      );
    }
    if (upload) {
      const digest = stored[upload.algorithm];
      // A part stored before the upload's checksum was kept (an upload of an older local-s3) has none.
      if (digest === undefined) throw invalidPart(uploadId, number, etag);
      digests.push(Buffer.from(digest, 'base64'));
    }
  }
  return { digests, md5s };
}

/** The composite checksum: the algorithm's digest of the parts' digests joined, base64, then `-{parts}`. */
async function compositeChecksum(algorithm: UploadChecksum['algorithm'], digests: Buffer[]): Promise<string> {
  const digest = await createDigest(algorithm);
  for (const part of digests) digest.update(part);
  return `${digest.digest().toString('base64')}-${digests.length}`;
}

async function completeMultipartUpload(
  ctx: S3rverContext,
  next: () => Promise<void>,
  target: RequestTarget,
  uploadId: string,
  folder: string,
): Promise<void> {
  await corsAndSignature(ctx, target);
  // The body is read here, then handed to s3rver again, which reads it for itself.
  const raw = await readBody(ctx.req, MAX_COMPLETE_BYTES);
  const parsed: { req: NodeJS.ReadableStream; request: { body?: unknown } } = { req: Readable.from([raw]), request: {} };
  await xmlBodyParser(parsed);
  ctx.req = Readable.from([raw]) as unknown as IncomingMessage;
  const listed = (parsed.request.body as { CompleteMultipartUpload?: { Part?: ListedPart | ListedPart[] } } | undefined)?.CompleteMultipartUpload?.Part;
  // No part listed: s3rver answers MalformedXML.
  if (listed === undefined) return next();

  const upload = await readUploadChecksum(folder);
  const typeHeader = ctx.get('x-amz-checksum-type').toUpperCase();
  if (typeHeader !== '') {
    if (!CHECKSUM_TYPES.includes(typeHeader)) throw invalidValue('x-amz-checksum-type');
    if (upload && typeHeader !== upload.type) {
      throw invalidRequest(`The upload was created using the ${upload.type} checksum mode. The complete request must use the same checksum mode.`);
    }
  }
  const { digests, md5s } = await checkParts(([] as ListedPart[]).concat(listed), folder, uploadId, upload);
  const given = givenChecksum(ctx.headers, { multipartValue: true });
  if (given && upload && given.algorithm !== upload.algorithm) {
    throw invalidRequest(
      `Checksum Type mismatch occurred, expected checksum Type: ${upload.algorithm.toLowerCase()}, actual checksum Type: ${given.algorithm.toLowerCase()}`,
    );
  }

  // S3's multipart ETag (s3rver's was the MD5 of the whole object): a retried completion tells its object by it.
  const md5 = await createDigest('MD5');
  for (const part of md5s) md5.update(part);
  const checks: WriteChecks = { compute: [], etag: `${md5.digest().toString('hex')}-${md5s.length}`, ...writeConditions(ctx.headers) };
  // An upload created without an algorithm: S3 verifies (and keeps) a full-object CRC64NVME given at completion.
  const fullObject = upload?.type === 'FULL_OBJECT' ? upload.algorithm : !upload && given?.algorithm === 'CRC64NVME' ? given.algorithm : undefined;
  if (upload?.type === 'COMPOSITE') {
    const value = await compositeChecksum(upload.algorithm, digests);
    if (given && given.value !== value && given.value !== value.replace(/-\d+$/, '')) throw badDigest(upload.algorithm.toLowerCase());
    checks.keep = { checksum: { algorithm: upload.algorithm, type: 'COMPOSITE', value } };
  } else if (fullObject) {
    if (given?.value.includes('-')) throw invalidValue(`x-amz-checksum-${fullObject.toLowerCase()}`);
    Object.assign(checks, { given, givenName: fullObject.toLowerCase(), compute: [fullObject] });
    checks.keep = { algorithm: fullObject, type: 'FULL_OBJECT' };
  }

  await writeChecks.run(checks, next);
  const result = (ctx.body as { CompleteMultipartUploadResult?: Record<string, unknown> } | undefined)?.CompleteMultipartUploadResult;
  const kept = checks.keep && ('checksum' in checks.keep ? checks.keep.checksum : { ...checks.keep, value: checks.computed?.[checks.keep.algorithm] });
  if (result && kept?.value !== undefined) {
    result[checksumElement(kept.algorithm)] = kept.value;
    result.ChecksumType = kept.type;
  }
}
