/**
 * The checksum of a single PUT: with `checksum: 'md5'`, the file's MD5 (streamed; the checksum module and
 * `hash-wasm` loaded with `import()` only then, so a page without checksums never downloads them).
 */
import type { ObjectChecksum } from '@upbeam/upload-protocol';
import type { ChecksumOption } from './checksum';

/** The `Content-MD5` header to add to a single PUT of `file`, and the object's `full-object` checksum. */
export interface SinglePutChecksum {
  headers: Record<string, string>;
  checksum: ObjectChecksum | undefined;
}

const NONE: SinglePutChecksum = { headers: {}, checksum: undefined };

/** Hashes `file` when `option` is `'md5'`; else no header and no checksum. */
export async function singlePutChecksum(file: Blob, option: ChecksumOption | undefined): Promise<SinglePutChecksum> {
  if (option !== 'md5') return NONE;
  const { contentMd5, fullObjectChecksum, md5Of } = await import('./checksum');
  const digest = await md5Of(file);
  return { headers: { 'Content-MD5': contentMd5(digest) }, checksum: fullObjectChecksum(digest) };
}
