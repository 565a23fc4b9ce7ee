/// <reference path="./s3rver.d.ts" />
/**
 * The multipart calls s3rver 4.0.4 answers with 405 MethodNotAllowed, on the folder where it keeps an
 * upload's parts (`{directory}/{bucket}/._S3rver_uploads/{uploadId}/`: files `key`, `metadata`, and per part
 * `{n}` and `{n}.md5`):
 *
 * - AbortMultipartUpload (`DELETE /{bucket}/{key}?uploadId`): removes the upload's folder, answers 204.
 * - ListParts (`GET /{bucket}/{key}?uploadId`): the stored parts with their ETag, size and checksum.
 * - ListMultipartUploads (`GET /{bucket}?uploads`): the uploads in progress.
 *
 * and makes UploadPart and CompleteMultipartUpload answer 404 NoSuchUpload for an upload that was aborted
 * or never existed, as S3 does: s3rver would re-create the folder of an aborted upload for a part still in
 * flight, leaving an orphan on disk. CompleteMultipartUpload and AbortMultipartUpload wait for the part uploads
 * of their upload in progress, and for each other (part-turns.ts). Signatures and CORS headers are checked and
 * set as s3rver does.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3rverContext, S3rverMiddleware } from '@20minutes/s3rver';
import { checksumElement } from './checksum-algorithms';
import { readPartChecksums, readUploadChecksum, type UploadChecksum } from './checksum-files';
import { takeUploadTurns } from './part-turns';
import { corsAndSignature, noSuchUpload, requestTarget, type RequestTarget } from './request-target';
import { accounts, S3Error } from './s3rver-internals';

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
/** S3's page size for ListParts (`max-parts`) and ListMultipartUploads (`max-uploads`). */
const MAX_LIST_ENTRIES = 1000;
/** s3rver's upload ids: 16 random bytes in hex. Anything else is refused before it can name a path. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** The middleware answering the multipart calls above; everything else goes on to s3rver. */
export function multipartCalls(directory: string): S3rverMiddleware {
  const uploadsFolder = (bucket: string) => join(directory, bucket, '._S3rver_uploads');
  const uploadFolder = (bucket: string, uploadId: string) => join(uploadsFolder(bucket), uploadId);

  /** Throws NoSuchUpload unless `uploadId` is an upload in progress of this bucket and key. */
  async function assertUpload(target: RequestTarget, uploadId: string): Promise<string> {
    if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload(uploadId);
    const folder = uploadFolder(target.bucket, uploadId);
    const key = await readFile(join(folder, 'key'), 'utf8').catch(() => undefined);
    if (key !== target.key) throw noSuchUpload(uploadId);
    return folder;
  }

  return async function multipart(ctx, next) {
    const target = requestTarget(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (target?.key === undefined) {
      if (target && ctx.method === 'GET' && 'uploads' in ctx.query) {
        await corsAndSignature(ctx, target);
        await listMultipartUploads(ctx, target, uploadsFolder(target.bucket));
        return;
      }
      return next();
    }
    if (typeof uploadId !== 'string') return next();

    switch (ctx.method) {
      case 'DELETE': {
        await corsAndSignature(ctx, target);
        const folder = await assertUpload(target, uploadId);
        // Not while a completion reads the parts (s3rver's read of a removed part throws where nobody listens),
        // nor while a part's body arrives; they wait for it in turn.
        const release = await takeUploadTurns(folder);
        try {
          await rm(folder, { recursive: true, force: true });
        } finally {
          release();
        }
        ctx.status = 204;
        return;
      }
      case 'GET': {
        await corsAndSignature(ctx, target);
        await listParts(ctx, target, uploadId, await assertUpload(target, uploadId));
        return;
      }
      case 'PUT': {
        const folder = await assertUpload(target, uploadId);
        await next().catch(async (error: unknown) => {
          if (await isGone(folder)) return;
          throw error;
        });
        // Aborted while this part was being written: s3rver re-created the folder for it.
        if (await isGone(folder)) {
          await rm(folder, { recursive: true, force: true });
          throw noSuchUpload(uploadId);
        }
        return;
      }
      case 'POST': {
        const folder = await assertUpload(target, uploadId);
        // CompleteMultipartUpload reads every part: it waits for the part uploads in progress (a late duplicate
        // holds its number's stored part aside until its body has arrived), and they for it.
        const release = await takeUploadTurns(folder);
        try {
          // Aborted while this waited for its turn.
          if (await isGone(folder)) throw noSuchUpload(uploadId);
          return await next();
        } finally {
          release();
        }
      }
      default:
        return next();
    }
  };
}

/** True when the upload's `key` file is missing: the upload was aborted (or completed). */
async function isGone(folder: string): Promise<boolean> {
  return stat(join(folder, 'key')).then(
    () => false,
    () => true,
  );
}

function pageSize(value: unknown): number {
  const size = Number(value ?? MAX_LIST_ENTRIES);
  if (!Number.isInteger(size) || size < 0) throw new S3Error('InvalidArgument', 'The page size must be a whole number.');
  return Math.min(size, MAX_LIST_ENTRIES);
}

const owner = () => ({ ID: String(accounts.DUMMY_ACCOUNT.id), DisplayName: 'S3rver' });

/**
 * Part `n` as ListParts shows it (with its checksum of the upload's algorithm, if any); `undefined` when it was
 * moved aside since the folder was read (a late duplicate of the part has started: incomplete-body.ts), as a
 * part without its `.md5` is not listed either.
 */
async function storedPart(folder: string, n: number, checksum: UploadChecksum | undefined) {
  const part = join(folder, String(n));
  const read = await Promise.all([stat(part), readFile(`${part}.md5`, 'utf8'), readPartChecksums(part)]).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (!read) return undefined;
  const [info, md5, checksums] = read;
  const value = checksum && checksums[checksum.algorithm];
  return {
    PartNumber: n,
    LastModified: info.mtime.toISOString(),
    ETag: JSON.stringify(md5.trim()),
    Size: info.size,
    ...(value === undefined ? {} : { [checksumElement(checksum!.algorithm)]: value }),
  };
}

async function listParts(ctx: S3rverContext, target: RequestTarget, uploadId: string, folder: string): Promise<void> {
  const maxParts = pageSize(ctx.query['max-parts']);
  const marker = Number(ctx.query['part-number-marker'] ?? 0);
  const names = new Set(await readdir(folder));
  // A part is stored once s3rver has written its `.md5`: an UploadPart cut off mid-body leaves its bytes
  // without one, and S3 does not keep such a part (ListParts does not show it).
  const numbers = [...names]
    .filter((name) => /^\d+$/.test(name) && names.has(`${name}.md5`))
    .map(Number)
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const page = numbers.slice(0, maxParts);
  const checksum = await readUploadChecksum(folder);
  const listed = await Promise.all(page.map((n) => storedPart(folder, n, checksum)));
  const parts = listed.filter((part) => part !== undefined);
  const truncated = numbers.length > page.length;
  ctx.body = {
    ListPartsResult: {
      '@': { xmlns: XMLNS },
      Bucket: target.bucket,
      Key: target.key,
      UploadId: uploadId,
      PartNumberMarker: marker,
      NextPartNumberMarker: page.at(-1) ?? marker,
      MaxParts: maxParts,
      IsTruncated: truncated,
      Part: parts,
      Initiator: owner(),
      Owner: owner(),
      StorageClass: 'STANDARD',
      ...(checksum && { ChecksumAlgorithm: checksum.algorithm, ChecksumType: checksum.type }),
    },
  };
}

async function listMultipartUploads(ctx: S3rverContext, target: RequestTarget, folder: string): Promise<void> {
  const bucketExists = await stat(join(folder, '..')).then(
    () => true,
    () => false,
  );
  if (!bucketExists) throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', { BucketName: target.bucket });
  const maxUploads = pageSize(ctx.query['max-uploads']);
  const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
  const ids = (await readdir(folder).catch(() => [] as string[])).filter((name) => UPLOAD_ID.test(name));
  const uploads: { Key: string; UploadId: string; Initiated: string; ChecksumAlgorithm?: string; ChecksumType?: string }[] = [];
  for (const id of ids) {
    const keyFile = join(folder, id, 'key');
    const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]).catch(() => []);
    // A folder without its key file is a part written after an abort, not an upload.
    if (key === undefined || info === undefined || !key.startsWith(prefix)) continue;
    const checksum = await readUploadChecksum(join(folder, id));
    uploads.push({
      Key: key,
      UploadId: id,
      Initiated: info.mtime.toISOString(),
      ...(checksum && { ChecksumAlgorithm: checksum.algorithm, ChecksumType: checksum.type }),
    });
  }
  uploads.sort((a, b) => a.Key.localeCompare(b.Key) || a.Initiated.localeCompare(b.Initiated));
  const page = uploads.slice(0, maxUploads);
  const last = page.at(-1);
  ctx.body = {
    ListMultipartUploadsResult: {
      '@': { xmlns: XMLNS },
      Bucket: target.bucket,
      KeyMarker: '',
      UploadIdMarker: '',
      NextKeyMarker: last?.Key ?? '',
      NextUploadIdMarker: last?.UploadId ?? '',
      Prefix: prefix,
      MaxUploads: maxUploads,
      IsTruncated: uploads.length > page.length,
      Upload: page.map((upload) => ({ ...upload, Initiator: owner(), Owner: owner(), StorageClass: 'STANDARD' })),
    },
  };
}
