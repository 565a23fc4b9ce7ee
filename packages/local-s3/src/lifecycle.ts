import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What S3's lifecycle rule `AbortIncompleteMultipartUpload` does, at start: removes the multipart uploads
 * of `bucket` initiated more than `afterSeconds` ago (a browser closed mid-upload cannot abort its own), and
 * any upload folder without its `key` file (left by s3rver before this package answered aborts).
 *
 * @returns the number of uploads removed.
 */
export async function abortIncompleteUploads(directory: string, bucket: string, afterSeconds: number): Promise<number> {
  const folder = join(directory, bucket, '._S3rver_uploads');
  const ids = await readdir(folder).catch(() => [] as string[]);
  const oldest = Date.now() - afterSeconds * 1000;
  let removed = 0;
  for (const id of ids) {
    const initiated = await stat(join(folder, id, 'key')).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    if (initiated !== undefined && initiated > oldest) continue;
    await rm(join(folder, id), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
