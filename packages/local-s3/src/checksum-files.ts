/**
 * Where the checksums are kept on disk, beside what s3rver keeps:
 * - a multipart upload's algorithm and type (CreateMultipartUpload's `x-amz-checksum-algorithm` and
 *   `x-amz-checksum-type`): `checksum.json` in the upload's folder (removed with it on abort or completion);
 * - a part's checksums: `{n}.checksums.json` beside the part's file `{n}` (and its `{n}.md5`);
 * - an object's checksum: a field of its `metadata.json`, which s3rver rewrites on every PutObject (a PUT
 *   without a checksum leaves none) and copies with the object.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3ChecksumAlgorithm } from './checksum-algorithms';

/** How a multipart object's checksum is made from its parts' (S3's `x-amz-checksum-type`). */
export type ChecksumType = 'COMPOSITE' | 'FULL_OBJECT';

/** A multipart upload's checksum, as CreateMultipartUpload asked for it. */
export interface UploadChecksum {
  algorithm: S3ChecksumAlgorithm;
  type: ChecksumType;
}

/** A stored object's checksum, as HeadObject and GetObject report it with `x-amz-checksum-mode: ENABLED`. */
export interface ObjectChecksum extends UploadChecksum {
  /** base64 of the digest; a composite one ends in `-{parts}`. */
  value: string;
}

/** A part's checksums by algorithm (base64 of each digest). */
export type PartChecksums = Partial<Record<S3ChecksumAlgorithm, string>>;

/** The field of `metadata.json` that holds the object's checksum (s3rver reads only the fields it knows). */
const OBJECT_CHECKSUM_FIELD = 'local-s3-checksum';

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export const readUploadChecksum = (uploadFolder: string) => readJson<UploadChecksum>(join(uploadFolder, 'checksum.json'));
export const writeUploadChecksum = (uploadFolder: string, checksum: UploadChecksum) =>
  writeFile(join(uploadFolder, 'checksum.json'), JSON.stringify(checksum));

/** The path of a part's checksums, from the path of the part's file. */
export const partChecksumsPath = (partPath: string) => `${partPath}.checksums.json`;
export const readPartChecksums = async (partPath: string) => (await readJson<PartChecksums>(partChecksumsPath(partPath))) ?? {};

/** The object's checksum kept in its `metadata.json`; undefined when it has none (or no metadata). */
export async function readObjectChecksum(metadataPath: string): Promise<ObjectChecksum | undefined> {
  const metadata = await readJson<Record<string, unknown>>(metadataPath);
  return metadata?.[OBJECT_CHECKSUM_FIELD] as ObjectChecksum | undefined;
}

/** Adds the object's checksum to the `metadata.json` s3rver has just written. */
export async function writeObjectChecksum(metadataPath: string, checksum: ObjectChecksum): Promise<void> {
  const metadata = (await readJson<Record<string, unknown>>(metadataPath)) ?? {};
  await writeFile(metadataPath, JSON.stringify({ ...metadata, [OBJECT_CHECKSUM_FIELD]: checksum }, null, 2));
}
