/**
 * The restore of a tracker with `persist`: after a reload or a crash, the kept files it does not track yet
 * come back on its list, oldest first, marked restored (a multipart one shows its stored parts' bytes at once);
 * those no other tab holds are uploaded again at once (unless the browser can no longer read them), the others
 * wait, `elsewhere`, until the tab that holds them gives them up. Loaded with the kept queue (`import()`), by a
 * tracker with `persist` only.
 */
import { UploadClientError } from './errors';
import { nextTask } from './next-task';
import { storedBytes } from './part-math';
import type { PersistedFile, PersistedQueue } from './persisted-queue';
import { openResumeJournal, resumeJournalId } from './resume-journal';
import type { PersistedList } from './persistence';

/**
 * Restored files put on the list per task: the tracker makes each one's owner and first snapshot, a few
 * microseconds a file, so that a queue of tens of thousands comes back without a long task.
 */
const ADDED_PER_TASK = 1000;

/** Restores the kept files of `queue` that `list` does not track yet (see the module's comment). */
export async function restoreKept(queue: PersistedQueue, list: PersistedList): Promise<void> {
  const kept = (await queue.list()).filter((file) => !list.getFile(file.id));
  if (kept.length === 0) return;
  const claimed = await queue.claimAll(kept);
  for (let at = 0; at < kept.length; at += ADDED_PER_TASK) {
    if (at > 0) await nextTask();
    const added = kept
      .slice(at, at + ADDED_PER_TASK)
      .map((file, index) => ({ kept: file, status: claimed[at + index] ? ('queued' as const) : ('elsewhere' as const) }))
      .filter(({ kept: file }) => !list.getFile(file.id));
    list.add(added);
    for (const { kept: file } of added) void showStoredParts(queue, list, file.id);
  }
  for (const [index, file] of kept.entries()) {
    if (claimed[index]) await resend(list, file);
    else void takeOver(queue, list, file);
  }
}

/**
 * Shows the bytes a restored multipart file has on storage (its journal record's whole parts) while it
 * waits: it would show 0 % until it runs. A file already running shows what its upload reports.
 */
async function showStoredParts(queue: PersistedQueue, list: PersistedList, id: string): Promise<void> {
  const tracked = list.getFile(id);
  if (!tracked?.multipart) return;
  const record = await openResumeJournal(resumeJournalId(tracked.file, list.optionsOf(id), queue.scope)).read();
  const now = list.getFile(id);
  if (!record || !now || (now.status !== 'queued' && now.status !== 'elsewhere') || now.uploaded > 0) return;
  const uploaded = storedBytes(record.parts, now.size, record.partSize);
  list.change(id, { uploaded, progress: now.size === 0 ? 100 : (uploaded / now.size) * 100 });
}

/** Waits until the tab that uploads kept file `id` gives it up, then uploads what is left of it here. */
async function takeOver(queue: PersistedQueue, list: PersistedList, kept: PersistedFile): Promise<void> {
  const { id } = kept;
  const file = await queue.takeOver(kept);
  if (!list.getFile(id)) {
    // Removed from this tab's list while it waited.
    queue.letGo(id);
    return;
  }
  if (file) await resend(list, file);
  else list.remove(id);
}

/**
 * Queues a restored file this tab holds (the picked file: a `transform` runs again on it), or fails it when the
 * browser can no longer read it, or when it was kept with a transform this tracker does not have.
 */
async function resend(list: PersistedList, file: PersistedFile): Promise<void> {
  if (!list.getFile(file.id)) return;
  if (file.transformed && !list.optionsOf(file.id).transform) {
    const message = `${file.file.name} was kept to be sent transformed, and this page's uploads have no transform: pick it again.`;
    list.change(file.id, { status: 'error', error: new UploadClientError('INVALID_OPTIONS', message) });
    return;
  }
  if (await isReadable(file.file)) {
    list.change(file.id, { status: 'queued' });
    return;
  }
  const error = new UploadClientError('FILE_UNREADABLE', `The browser can no longer read ${file.file.name}: pick it again.`);
  list.change(file.id, { status: 'error', error });
}

/** Whether the browser can still read `file` (a kept file whose bytes the browser no longer has cannot be). */
async function isReadable(file: File): Promise<boolean> {
  try {
    await file.slice(0, 1).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}
