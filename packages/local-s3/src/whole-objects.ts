/**
 * An object is stored whole or not at all. s3rver 4.0.4 writes a PutObject's body (and a completed multipart
 * upload's parts) straight into the object's file as it arrives: a body cut off after 1 of 4 MiB left a 1 MiB
 * object (HEAD 200) in place of the object stored before, where S3 stores nothing and keeps the object before.
 * This makes its store write the body to a file beside the object's (not listed: its name does not end in
 * s3rver's object suffix) and rename it over the object's file once the body has ended whole; a body that
 * ends short (the request's stream fails) is removed, and the object before stays as it was.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What s3rver's store hands its `putObject` (`lib/models/object.js`). */
interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}

/** The slice of s3rver's `FilesystemStore` (`lib/stores/filesystem.js`) this replaces and builds on. */
export interface ObjectStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
}

/** Writes `content` to `path`; resolves with its size (bytes) and MD5 (hex) once all of it is on disk. */
async function writeContent(path: string, content: Buffer | Readable): Promise<{ size: number; md5: string }> {
  const md5 = createHash('md5');
  if (Buffer.isBuffer(content)) {
    await writeFile(path, content);
    return { size: content.length, md5: md5.update(content).digest('hex') };
  }
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  // Rejects when the request ends short (ERR_STREAM_PREMATURE_CLOSE): the file is then never renamed.
  await pipeline(content, measure, createWriteStream(path));
  return { size, md5: md5.digest('hex') };
}

/** Replaces `store.putObject` with one that stores a whole body or nothing (see the module comment). */
export function storeWholeObjects(store: ObjectStore): void {
  store.putObject = async function putWholeObject(object) {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const incoming = `${objectPath}.incoming-${randomBytes(8).toString('hex')}`;
    try {
      const { size, md5 } = await writeContent(incoming, object.content);
      await rename(incoming, objectPath);
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      return { size, md5 };
    } finally {
      await rm(incoming, { force: true });
    }
  };
}
