/**
 * The restore of a tracker with `persist`: after a reload or a crash, the kept files it does not track yet
 * come back on its list, oldest first, marked restored; those no other tab holds are uploaded again at
 * once (unless the browser can no longer read them), the others wait, `elsewhere`, until the tab that holds
 * them gives them up. Loaded with the kept queue (`import()`), by a tracker with `persist` only.
 */
import { UploadClientError } from './errors';
import type { PersistedFile, PersistedQueue } from './persisted-queue';

/** What the restore does to the tracker's list. */
export interface RestoreTarget {
  /** Whether the list holds the file with this id. */
  tracks(id: string): boolean;
  /** Adds restored files to the list (`restored`, `kept`), each `queued` or `elsewhere`. */
  add(files: readonly { kept: PersistedFile; status: 'queued' | 'elsewhere' }[]): void;
  /** Queues a restored file of the list for upload. */
  start(id: string): void;
  /** Ends a restored file of the list as failed. */
  fail(id: string, error: UploadClientError): void;
  /** Takes a file off the list (another tab finished it). */
  drop(id: string): void;
}

/** Restores the kept files of `queue` that `target` does not track yet (see the module's comment). */
export async function restoreKept(queue: PersistedQueue, target: RestoreTarget): Promise<void> {
  const kept = (await queue.list()).filter((file) => !target.tracks(file.id));
  const claimed = await Promise.all(kept.map((file) => queue.claim(file.id)));
  if (kept.length === 0) return;
  target.add(kept.map((file, index) => ({ kept: file, status: claimed[index] ? 'queued' : 'elsewhere' })));
  for (const [index, file] of kept.entries()) {
    if (claimed[index]) await resend(target, file);
    else void takeOver(queue, target, file.id);
  }
}

/** Waits until the tab that uploads kept file `id` gives it up, then uploads what is left of it here. */
async function takeOver(queue: PersistedQueue, target: RestoreTarget, id: string): Promise<void> {
  const file = await queue.takeOver(id);
  if (!target.tracks(id)) {
    // Removed from this tab's list while it waited.
    queue.letGo(id);
    return;
  }
  if (file) await resend(target, file);
  else target.drop(id);
}

/** Queues a restored file this tab holds, or fails it when the browser can no longer read it. */
async function resend(target: RestoreTarget, file: PersistedFile): Promise<void> {
  if (!target.tracks(file.id)) return;
  if (await isReadable(file.file)) {
    target.start(file.id);
    return;
  }
  target.fail(file.id, new UploadClientError('FILE_UNREADABLE', `The browser can no longer read ${file.file.name}: pick it again.`));
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
