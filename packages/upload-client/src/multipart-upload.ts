/**
 * One multipart upload from start to end, the same on both strategies (the shape of Uppy's `MultipartUploader`
 * and tus-js-client's `BaseUpload`): a {@link MultipartUpload} owns its whole life. It starts (continues its
 * journal record, or creates the upload), sends its parts ({@link MultipartParts}) and reports their progress,
 * pauses and resumes (its `pauseController`), completes, and after a cancel or a failure aborts the upload on
 * storage or keeps it for a resume; its resume journal record is its own. The strategies provide only how to
 * create and reopen an upload ({@link MultipartStarter}).
 */
import type { CompletedPart, ObjectChecksum, UploadStrategy } from '@upbeam/upload-protocol';
import { createAbortError, onAbort } from './abort';
import { isNoSuchUpload, type MultipartBackend, type SignedPartRequest } from './multipart-backend';
import { MultipartParts } from './multipart-parts';
import type { PauseController } from './pause';
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
   * nobody aborts). {@link MultipartUpload} aborts an upload created during a cancel instead.
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

/** Sends `upload.file` as a multipart upload: see {@link MultipartUpload}. */
export class MultipartUpload {
  readonly #upload: UploadContext;
  readonly #settings: MultipartSettings;
  readonly #starter: MultipartStarter;

  constructor(upload: UploadContext, settings: MultipartSettings, starter: MultipartStarter) {
    this.#upload = upload;
    this.#settings = settings;
    this.#starter = starter;
  }

  /**
   * Sends the file, then completes the upload.
   * - With `resume`, one tab of the origin at a time runs the upload of a journal record (a Web Lock named
   *   after it): the same file given in a second tab waits until the first tab is done with it or gone.
   * - With `resume`, an unfinished upload of the same file to the same endpoint, under the same scope, is
   *   continued (only the missing parts are sent); one that turns out to be gone (`NoSuchUpload` on a part or
   *   the completion) is dropped and the file sent afresh, once.
   * - Pause (`pauseController`) stops the parts in flight at once; resume sends what is missing.
   * - A cancel (`signal`, even while paused) aborts the upload on storage (unless `leavePartsOnError`) and
   *   forgets the record, then rejects with `AbortError` `Upload aborted.`.
   * - A failure after the retries aborts the upload likewise, except with `resume`: then parts and record
   *   are kept so that the next attempt continues.
   * @returns the journal record of the completed upload (key, url when known) and its checksum.
   */
  async start(): Promise<MultipartOutcome> {
    const { file, options } = this.#upload;
    const { resume } = this.#settings;
    if (!resume) return this.#run(NO_JOURNAL);
    // Loaded with `resume` only. One tab at a time continues a journal record: a second tab given the same
    // file waits for the first.
    const { lockResumeJournal } = await import('./resume-journal');
    const { journal, release } = await lockResumeJournal(file, { ...options, strategy: this.#starter.strategy }, resume, options.signal).catch((error: unknown) => {
      throw options.signal?.aborted ? createAbortError() : error;
    });
    try {
      return await this.#run(journal);
    } finally {
      release();
    }
  }

  /**
   * Continues the upload of its journal record (`journal`: its file's record, locked; without `resume`, none),
   * or creates one; one found gone on storage is created afresh, once.
   */
  async #run(journal: ResumeJournal): Promise<MultipartOutcome> {
    const kept = await journal.read();
    const reopened = kept && (await this.#starter.reopen(kept));
    if (kept && !reopened) await journal.remove();
    try {
      return await this.#send(journal, reopened ?? (await this.#create()));
    } catch (error) {
      if (!reopened || !isNoSuchUpload(error)) throw error;
      await journal.remove();
      return this.#send(journal, await this.#create());
    }
  }

  /** Creates the upload; one created while the caller cancelled is aborted on storage before the rejection. */
  async #create(): Promise<OpenedUpload> {
    const { partSize, leavePartsOnError } = this.#settings;
    const opened = await this.#starter.create(partSize);
    if (this.#upload.options.signal?.aborted) {
      if (!leavePartsOnError) await opened.backend.abort().catch(() => {});
      throw createAbortError();
    }
    return opened;
  }

  /** Sends the parts of the opened upload and completes it; after a cancel or a failure, aborts it or keeps it. */
  async #send(journal: ResumeJournal, { backend, record: opened, signed }: OpenedUpload): Promise<MultipartOutcome> {
    const { file, options, report } = this.#upload;
    const settings = this.#settings;
    const record = { ...opened, parts: wholeParts(opened.parts, file.size, opened.partSize) };
    await journal.write(record);
    const parts = new MultipartParts({
      file,
      partSize: record.partSize,
      queueSize: settings.queueSize,
      completed: record.parts,
      signed,
      backend,
      retry: options,
      // What the upload was created with (the server's answer: the option's, else the route's); a server that
      // predates checksums names none: the option's, sent beside the signature (Content-MD5).
      checksum: record.checksum ?? (options.checksum || undefined),
      onProgress: report,
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
      checksum = await this.#complete(parts, backend);
    } catch (error) {
      const cancelled = options.signal?.aborted;
      // Gone on storage: nothing to abort; the caller starts afresh or fails.
      if (isNoSuchUpload(error)) throw error;
      if (cancelled || !settings.resume) {
        if (!settings.leavePartsOnError) {
          await backend.abort().catch(() => {});
          // Storage no longer keeps the stored parts: their bytes leave the progress too.
          report(0);
        }
        await journal.remove();
      }
      throw cancelled ? createAbortError() : error;
    }
    await journal.remove();
    return { record, checksum };
  }

  /**
   * Sends the missing parts, stopping them at once on a pause and sending what is missing on resume, then
   * completes the upload.
   * @returns the object's checksum when the parts carried one, else `undefined`.
   * @throws `AbortError` DOMException (`Upload aborted.`) when cancelled, even while paused.
   * @throws `UploadClientError` of the first part that failed after its retries, or of the completion.
   */
  async #complete(parts: MultipartParts, backend: MultipartBackend): Promise<ObjectChecksum | undefined> {
    const { signal, pauseController } = this.#upload.options;
    /** Stops the parts of the current run: aborted by a cancel, a pause, or a part's final failure. */
    let run: AbortController | undefined;
    const stopCancel = onAbort(signal, () => run?.abort());
    const stopPause = pauseController?.subscribe(() => {
      if (pauseController.paused) run?.abort();
    });
    try {
      for (;;) {
        await waitWhilePaused(pauseController, signal);
        run = new AbortController();
        try {
          await parts.send(run);
          break;
        } catch (error) {
          if (signal?.aborted) throw createAbortError();
          if (!pauseController?.paused) throw error;
        }
      }
      parts.report();
      const checksum = await parts.checksum();
      return (await backend.complete(await parts.completed(), signal, checksum)) ?? checksum;
    } finally {
      stopCancel();
      stopPause?.();
      run?.abort();
    }
  }
}

/** Resolves at once when not paused, else when resumed; rejects with `AbortError` when `signal` aborts. */
function waitWhilePaused(pauseController: PauseController | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(createAbortError());
  if (!pauseController?.paused) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stopPause = pauseController.subscribe(() => {
      if (pauseController.paused) return;
      stopCancel();
      stopPause();
      resolve();
    });
    const stopCancel = onAbort(signal, () => {
      stopPause();
      reject(createAbortError());
    });
  });
}
