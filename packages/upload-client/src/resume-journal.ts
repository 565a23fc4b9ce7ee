/**
 * The resume journal: what the browser keeps of an unfinished multipart upload so that the same file, given
 * again to the same endpoint, continues where it stopped (after a lost network, exhausted retries, a
 * reload or a closed tab). Kept in IndexedDB, one record per endpoint, strategy and file, under the scope
 * `resume` names (a user: see `ResumeOptions.scope`); removed when the upload completes or is aborted. The
 * embedded s3rver has no ListParts, so the journal, not storage, is
 * the record of which parts are sent; where storage lists parts, the list is checked against it.
 * Loaded with `import()` by an upload with `resume` only (and with a tracker's `persist`): a multipart upload
 * without it never downloads the journal, its IndexedDB access nor its Web Lock.
 */
import { DEFAULT_UPLOAD_ENDPOINT, type ChecksumAlgorithm, type CompletedPart } from '@upbeam/upload-protocol';
import { inStore } from './browser-database';
import type { ResumeOptions, UploadOptions } from './types';
import { waitForLock, type ReleaseLock } from './web-lock';

/** One unfinished multipart upload. */
export interface ResumeRecord {
  bucket: string;
  /** Object key. */
  key: string;
  /** Storage's id of the multipart upload. */
  uploadId: string;
  /** Part size the upload was cut in, in bytes. */
  partSize: number;
  /**
   * What the strategy needs to act on the upload again: the presigned multipart `ticket`, or the
   * temporary-token answer's renew `ticket`.
   */
  ticket: string;
  /** When `ticket` stops being accepted, in milliseconds since the epoch, when known. */
  ticketExpiresAt?: number | undefined;
  /** Address of the stored object (no query string), once known. */
  url?: string | undefined;
  /**
   * The parts stored so far, with the ETag storage answered each with. Their checksums are not kept: a
   * resumed upload hashes its stored parts again from the file for the Complete (which lists each part's)
   * and for the object's checksum, as it hashes every part for the composite.
   */
  parts: CompletedPart[];
  /**
   * The checksum algorithm the upload was created with (the `checksum` option, else the server's answer that
   * created it), kept so that a resume sends the same on its parts and its Complete; absent for none, and in
   * records written before this field.
   */
  checksum?: ChecksumAlgorithm | undefined;
}

/** Reads and writes the record of one file. Never throws: a browser without IndexedDB keeps nothing. */
export interface ResumeJournal {
  read(): Promise<ResumeRecord | undefined>;
  write(record: ResumeRecord): Promise<void>;
  remove(): Promise<void>;
}

/**
 * The IndexedDB key of a record: a string without a scope (as before scopes), `[scope, that string]` with one.
 * An array sorts after every string, so the records of one scope are the keys from `[scope]` to `[scope, []]`
 * ({@link scopeRange}), and no unscoped key is among them.
 */
export type ResumeJournalKey = string | [scope: string, id: string];

/**
 * Which record is the file's: the one place that says it (the upload that runs it, the restore that shows its
 * stored parts, the abort of a kept upload and the clear all ask here). The endpoint URL (default
 * `DEFAULT_UPLOAD_ENDPOINT`), the strategy (default `'presigned'`), and the file's name, size, lastModified and
 * type, under `scope` when one is given (a record of one scope is never read under another, nor without one).
 */
export function resumeJournalId(file: File, options: Pick<UploadOptions, 'endpoint' | 'strategy'>, scope: string | undefined): ResumeJournalKey {
  const endpointUrl = options.endpoint?.url ?? DEFAULT_UPLOAD_ENDPOINT;
  // Absolute, so that `/api/s3-upload` on two sites of one browser profile never share a record.
  const endpoint = globalThis.location ? new URL(endpointUrl, globalThis.location.href).href : endpointUrl;
  const id = JSON.stringify([endpoint, options.strategy ?? 'presigned', file.name, file.size, file.lastModified, file.type]);
  return scope === undefined ? id : [scope, id];
}

/** The keys of the records of one scope (see {@link ResumeJournalKey}). */
export function scopeRange(scope: string): IDBKeyRange {
  return IDBKeyRange.bound([scope], [scope, []]);
}

/** The Web Lock held by the one tab of the origin that runs (or aborts) the upload of a journal record. */
export function resumeLockName(id: ResumeJournalKey): string {
  return `upbeam-resume:${typeof id === 'string' ? id : JSON.stringify(id)}`;
}

/**
 * The journal of the file with this id ({@link resumeJournalId}). Writes go one after another, in order, so
 * that a record never goes back to an older list of parts.
 */
export function openResumeJournal(id: ResumeJournalKey): ResumeJournal {
  let writes: Promise<unknown> = Promise.resolve();
  const queue = <T>(work: () => Promise<T>): Promise<T> => {
    const done = writes.then(work);
    writes = done;
    return done;
  };
  return {
    read: () => queue(() => inStore('uploads', 'readonly', (store) => store.get(id) as IDBRequest<ResumeRecord | undefined>)),
    write: (record) => queue(async () => void (await inStore('uploads', 'readwrite', (store) => store.put(record, id)))),
    remove: () => queue(async () => void (await inStore('uploads', 'readwrite', (store) => store.delete(id)))),
  };
}

/**
 * The journal of `file` for `options`' endpoint and strategy and `resume`'s scope ({@link resumeJournalId}), once
 * this tab holds its record's Web Lock: one tab of the origin at a time runs the upload of a record, a second tab
 * given the same file waits here until the first is done with it or gone. Give the lock back with `release`.
 * @throws what `waitForLock` throws when `signal` aborts while it waits (the caller makes it its `AbortError`).
 */
export async function lockResumeJournal(
  file: File,
  options: Pick<UploadOptions, 'endpoint' | 'strategy'>,
  resume: true | ResumeOptions,
  signal: AbortSignal | undefined,
): Promise<{ journal: ResumeJournal; release: ReleaseLock }> {
  const id = resumeJournalId(file, options, resume === true ? undefined : resume.scope);
  const release = await waitForLock(resumeLockName(id), signal);
  return { journal: openResumeJournal(id), release };
}
