/**
 * One request at a time on each part file of a multipart upload. An UploadPart may move the stored part of
 * its number aside while its body arrives (incomplete-body.ts), and CompleteMultipartUpload reads every part
 * file: s3rver reading a part that is aside (or removed by an AbortMultipartUpload) throws ENOENT from a stream
 * nobody listens to (the process's uncaught exception) and never answers. Each request waits for the ones queued
 * before it on the same files.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Where a stored part waits while a new body for its number arrives (incomplete-body.ts). */
export const aside = (path: string) => `${path}.kept`;

/** Requests waiting for, or holding, each part's file: the promise ends when the last one queued is done. */
const turns = new Map<string, Promise<void>>();

/** Waits for the requests queued before on the part file `path`; the function returned ends this one's turn. */
export async function takeTurn(path: string): Promise<() => void> {
  const before = turns.get(path) ?? Promise.resolve();
  let end!: () => void;
  const mine = new Promise<void>((resolve) => (end = resolve));
  const queued = before.then(() => mine);
  turns.set(path, queued);
  await before;
  return () => {
    end();
    if (turns.get(path) === queued) turns.delete(path);
  };
}

/**
 * Takes the turn of every part file of the upload whose folder is `folder` (a part moved aside counts), for
 * CompleteMultipartUpload and AbortMultipartUpload: queued on all of them in the same call, so no part's upload
 * can start between two.
 */
export async function takeUploadTurns(folder: string): Promise<() => void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  // A part's file, or the same moved aside: `3` and `3.kept` (not `3.md5`).
  const parts = new Set(names.map((name) => name.replace(aside(''), '')).filter((name) => /^\d+$/.test(name)));
  const ends = await Promise.all([...parts].map((part) => takeTurn(join(folder, part))));
  return () => {
    for (const end of ends) end();
  };
}
