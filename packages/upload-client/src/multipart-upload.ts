/**
 * One multipart upload from start to end, the same on both strategies: resume from the journal or create,
 * send the parts with the engine, complete; after a cancel or a failure, abort it on storage or keep it
 * for a resume. The strategies provide only how to create and reopen an upload ({@link MultipartStarter}).
 */
import type { CompletedPart, UploadStrategy } from '@upbeam/upload-protocol';
import { createAbortError } from './abort';
import type { ObjectChecksum } from '@upbeam/upload-protocol';
import { isNoSuchUpload, type MultipartBackend, type SignedPartRequest } from './multipart-backend';
import { MultipartUpload } from './multipart-engine';
import { wholeParts, type MultipartSettings } from './part-math';
import type { ResumeJournal, ResumeRecord } from './resume-journal';
import type { UploadContext } from './types';

/** A multipart upload on storage, ready for its parts. */
export interface OpenedUpload {
  backend: MultipartBackend;
  /** What the journal keeps of it (its `parts` are the ones stored so far). */
  record: ResumeRecord;
  /** Parts already signed with the upload (the presigned `create` answer), sent without signing them again. */
  signed?: readonly SignedPartRequest[];
}

/** How a strategy starts a multipart upload. */
export interface MultipartStarter {
  strategy: UploadStrategy;
  /**
   * Creates a new multipart upload with parts of `partSize` bytes (the answer may choose another). Its
   * CreateMultipartUpload request is not cancelled in flight by the upload's signal: storage may create the
   * upload after the browser stopped waiting, and its upload id would be lost with the answer (an orphan
   * nobody aborts). {@link runMultipart} aborts an upload created during a cancel instead.
   */
  create(partSize: number): Promise<OpenedUpload>;
  /**
   * Opens the upload of a journal record again, with the parts storage holds (ListParts where storage has
   * it, else the record's). `undefined` when it can no longer be used (gone, or its ticket or credentials
   * cannot be renewed): the upload then starts afresh.
   */
  reopen(record: ResumeRecord): Promise<OpenedUpload | undefined>;
}

/** A completed multipart upload: its journal record, and its checksum when one was sent. */
export interface MultipartOutcome {
  record: ResumeRecord;
  checksum: ObjectChecksum | undefined;
}

/** A journal that keeps nothing, for uploads without `resume`. */
const NO_JOURNAL: ResumeJournal = {
  read: async () => undefined,
  write: async () => {},
  remove: async () => {},
};

/**
 * Sends `upload.file` as a multipart upload.
 * - With `resume`, one tab of the origin at a time runs the upload of a journal record (a Web Lock named
 *   after it): the same file given in a second tab waits until the first tab is done with it or gone.
 * - With `resume`, an unfinished upload of the same file to the same endpoint, under the same scope, is
 *   continued (only the missing parts are sent); one that turns out to be gone (`NoSuchUpload` on a part or
 *   the completion) is dropped and the file sent afresh, once.
 * - A cancel aborts the upload on storage (unless `leavePartsOnError`) and forgets the record, then
 *   rejects with `AbortError` `Upload aborted.`.
 * - A failure after the retries aborts the upload likewise, except with `resume`: then parts and record
 *   are kept so that the next attempt continues.
 * @returns the journal record of the completed upload (key, url when known) and its checksum.
 */
export async function runMultipart(upload: UploadContext, settings: MultipartSettings, starter: MultipartStarter): Promise<MultipartOutcome> {
  const { file, options } = upload;
  if (!settings.resume) return runWithJournal(upload, settings, starter, NO_JOURNAL);
  // Loaded with `resume` only. One tab at a time continues a journal record: a second tab given the same
  // file waits for the first.
  const { lockResumeJournal } = await import('./resume-journal');
  const { journal, release } = await lockResumeJournal(file, { ...options, strategy: starter.strategy }, settings.resume, options.signal).catch((error: unknown) => {
    throw options.signal?.aborted ? createAbortError() : error;
  });
  try {
    return await runWithJournal(upload, settings, starter, journal);
  } finally {
    release();
  }
}

async function runWithJournal(
  upload: UploadContext,
  settings: MultipartSettings,
  starter: MultipartStarter,
  journal: ResumeJournal,
): Promise<MultipartOutcome> {
  const { file, options } = upload;
  const kept = await journal.read();
  const reopened = kept && (await starter.reopen(kept));
  if (kept && !reopened) await journal.remove();
  try {
    return await send(reopened ?? (await create()));
  } catch (error) {
    if (!reopened || !isNoSuchUpload(error)) throw error;
    await journal.remove();
    return send(await create());
  }

  /** Creates the upload; one created while the caller cancelled is aborted on storage before the rejection. */
  async function create(): Promise<OpenedUpload> {
    const opened = await starter.create(settings.partSize);
    if (options.signal?.aborted) {
      if (!settings.leavePartsOnError) await opened.backend.abort().catch(() => {});
      throw createAbortError();
    }
    return opened;
  }

  async function send({ backend, record: opened, signed }: OpenedUpload): Promise<MultipartOutcome> {
    const record = { ...opened, parts: wholeParts(opened.parts, file.size, opened.partSize) };
    await journal.write(record);
    const engine = new MultipartUpload({
      file,
      partSize: record.partSize,
      queueSize: settings.queueSize,
      completed: record.parts,
      signed,
      backend,
      retry: options,
      // The option wins (`false` too); unset, what the server asked for when the upload was created.
      checksum: options.checksum ?? record.checksum,
      pauseController: options.pauseController,
      onProgress: upload.report,
      onPartStored: (part: CompletedPart) => {
        record.parts.push(part);
        void journal.write(record);
      },
      onFirstSigned: ({ url }) => {
        record.url ??= url.split('?')[0];
      },
    });
    let checksum: ObjectChecksum | undefined;
    try {
      checksum = await engine.upload();
    } catch (error) {
      const cancelled = options.signal?.aborted;
      // Gone on storage: nothing to abort; the caller starts afresh or fails.
      if (isNoSuchUpload(error)) throw error;
      if (cancelled || !settings.resume) {
        if (!settings.leavePartsOnError) {
          await backend.abort().catch(() => {});
          // Storage no longer keeps the stored parts: their bytes leave the progress too.
          upload.report(0);
        }
        await journal.remove();
      }
      throw cancelled ? createAbortError() : error;
    }
    await journal.remove();
    return { record, checksum };
  }
}
