/**
 * The cancel of a multipart file that has a kept upload but is not running: a tracker with `persist` restored
 * it (or retried it after a failure kept its parts) and it was cancelled, or removed, while still queued.
 * Its upload is aborted on storage and its journal record forgotten, as the cancel of a running upload does
 * (`MultipartUpload`); without this its parts would stay on storage until the bucket's lifecycle rule. Part of
 * the chunk of a tracker with `persist` (`tracker-persistence.ts`); the strategy's code loads when needed.
 */
import { FALLBACK_CONTENT_TYPE } from '@upbeam/upload-protocol';
import type { MultipartStarter } from './multipart-upload';
import { openResumeJournal, resumeJournalId, resumeLockName } from './resume-journal';
import { resolveRetrySettings } from './retry';
import type { UploadContext, UploadOptions } from './types';
import { tryLock } from './web-lock';

/**
 * Aborts on storage the kept multipart upload of `file` (its resume journal record for `options`' endpoint
 * and strategy, under `scope`) and removes the record; with `leavePartsOnError`, only removes the record. Does nothing when
 * no record is kept, or when a tab (this one or another) runs that upload: it holds the record's lock.
 * Never throws: an abort storage refuses or cannot hear leaves the parts to the lifecycle rule.
 */
export async function abortKeptUpload(file: File, options: UploadOptions, scope: string | undefined): Promise<void> {
  const journalId = resumeJournalId(file, options, scope);
  const release = await tryLock(resumeLockName(journalId));
  if (!release) return;
  try {
    const journal = openResumeJournal(journalId);
    const record = await journal.read();
    if (!record) return;
    if (!options.leavePartsOnError) {
      // No signal: this is the cleanup of a cancel, it must still reach storage.
      const upload: UploadContext = {
        file,
        filetype: file.type || FALLBACK_CONTENT_TYPE,
        options: resolveRetrySettings({ ...options, signal: undefined }),
        report: () => {},
      };
      // The strategies' own lazy chunks (those an upload loads), not new ones.
      const starter: MultipartStarter =
        (options.strategy ?? 'presigned') === 'presigned'
          ? (await import('./presigned/presigned-multipart')).presignedStarter(upload, {})
          : (await import('./temporary-token/temporary-token')).tokenStarterFor(upload);
      const opened = await starter.reopen(record).catch(() => undefined);
      await opened?.backend.abort().catch(() => {});
    }
    await journal.remove();
  } catch {
    // See the function's comment: never throws.
  } finally {
    release();
  }
}
