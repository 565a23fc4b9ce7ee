/**
 * An object (and a multipart upload's part) is stored whole or not at all, and only when the checksums its
 * request gives match the body. s3rver 4.0.4 writes a PutObject's body (and a completed multipart upload's
 * parts, and an UploadPart's body) straight into the file as it arrives: a body cut off after 1 of 4 MiB left
 * a 1 MiB object (HEAD 200) in place of the object stored before, where S3 stores nothing and keeps the object
 * before. This makes its store write the body to a file beside the final one (not listed: its name does not
 * end in s3rver's object suffix, nor is it a part number), computing the MD5 (the ETag) and the checksums the
 * request asks for (write-checks.ts) as it goes, and rename it into place once the body has ended whole and
 * its `Content-MD5` and `x-amz-checksum-*` match (else 400 `BadDigest`, nothing stored) and the object under
 * the key meets the request's `If-None-Match` / `If-Match` (else 412, nothing stored). A body that ends short
 * (the request's stream fails) is removed; the object or part before stays as it was.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDigest, type S3ChecksumAlgorithm } from './checksum-algorithms';
import { partChecksumsPath, writeObjectChecksum, type ObjectChecksum } from './checksum-files';
import { takeTurn } from './part-turns';
import { checkConditions, verifyBody, writeChecks } from './write-checks';

/** What s3rver's store hands its `putObject` (`lib/models/object.js`). */
interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}

/** The slice of s3rver's `FilesystemStore` (`lib/stores/filesystem.js`) this replaces and builds on. */
export interface ObjectStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  putPart(bucket: string, uploadId: string, partNumber: number | string, content: Buffer | Readable): Promise<{ size: number; md5: string }>;
}

type Computed = Partial<Record<S3ChecksumAlgorithm, string>>;

/**
 * Writes `content` to `path`; resolves with its size (bytes), MD5 (hex) and the checksums of `algorithms`
 * (base64) once all of it is on disk. The body streams through: never held whole in memory.
 */
async function writeContent(
  path: string,
  content: Buffer | Readable,
  algorithms: readonly S3ChecksumAlgorithm[],
): Promise<{ size: number; md5: string; computed: Computed }> {
  const md5 = await createDigest('MD5');
  const digests = await Promise.all(algorithms.map(async (algorithm) => [algorithm, await createDigest(algorithm)] as const));
  const update = (chunk: Buffer) => {
    md5.update(chunk);
    for (const [, digest] of digests) digest.update(chunk);
  };
  let size = 0;
  if (Buffer.isBuffer(content)) {
    await writeFile(path, content);
    update(content);
    size = content.length;
  } else {
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // Rejects when the request ends short (ERR_STREAM_PREMATURE_CLOSE): the file is then never renamed.
    await pipeline(content, measure, createWriteStream(path));
  }
  const computed = Object.fromEntries(digests.map(([algorithm, digest]) => [algorithm, digest.digest().toString('base64')])) as Computed;
  return { size, md5: md5.digest().toString('hex'), computed };
}

/** The ETag (MD5, hex) of the object whose file is `objectPath`; undefined when there is none. */
async function currentEtag(objectPath: string): Promise<string | undefined> {
  try {
    return (await readFile(`${objectPath}.md5`, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A temporary name beside `path`, for a body on its way. */
const incomingPath = (path: string) => `${path}.incoming-${randomBytes(8).toString('hex')}`;

/** Replaces `store.putObject` and `store.putPart` with ones that store a whole, verified body or nothing. */
export function storeWholeObjects(store: ObjectStore): void {
  store.putObject = async function putWholeObject(object) {
    const checks = writeChecks.getStore();
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const incoming = incomingPath(objectPath);
    try {
      const keep = checks?.keep;
      const algorithms = [...new Set([...(checks?.compute ?? []), ...(keep && 'algorithm' in keep ? [keep.algorithm] : [])])];
      const { size, md5, computed } = await writeContent(incoming, object.content, algorithms);
      verifyBody(checks, md5, computed);
      if (checks) checks.computed = computed;
      const etag = checks?.etag ?? md5;
      // The condition and the rename at once for this key: two writes with `If-None-Match: *` store one object.
      const done = await takeTurn(objectPath);
      try {
        checkConditions(checks, await currentEtag(objectPath));
        await rename(incoming, objectPath);
        await store.putMetadata(object.bucket, object.key, object.metadata, etag);
        const checksum: ObjectChecksum | undefined =
          keep === undefined ? undefined : 'checksum' in keep ? keep.checksum : { ...keep, value: computed[keep.algorithm]! };
        if (checksum) await writeObjectChecksum(store.getResourcePath(object.bucket, object.key, 'metadata.json'), checksum);
      } finally {
        done();
      }
      return { size, md5: etag };
    } finally {
      await rm(incoming, { force: true });
    }
  };

  store.putPart = async function putWholePart(bucket, uploadId, partNumber, content) {
    const checks = writeChecks.getStore();
    const partPath = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    await mkdir(dirname(partPath), { recursive: true });
    const incoming = incomingPath(partPath);
    try {
      const { size, md5, computed } = await writeContent(incoming, content, checks?.compute ?? []);
      verifyBody(checks, md5, computed);
      if (checks) checks.computed = computed;
      // The checksums first: the part counts as stored once its `.md5` is written (multipart.ts).
      await writeFile(partChecksumsPath(partPath), JSON.stringify(computed));
      await rename(incoming, partPath);
      await writeFile(`${partPath}.md5`, md5);
      return { size, md5 };
    } finally {
      await rm(incoming, { force: true });
    }
  };
}
