/**
 * The page of `persist-many.e2e.test.ts`: a tracker with `persist: true` (no list drawn), as a page with a long
 * kept queue uses it. On load it subscribes, which restores what the last page kept. The test adds files with
 * `window.persistMany.add(count)` and reads `window.persistMany.counts()`.
 */
import { UploadTracker } from '@upbeam/upload-client';

export interface PersistManyPage {
  /** Adds `count` files of 1 KiB (`file-<n>.bin`, bytes of a formula of n), in batches of 500 as a folder drop hands them over. */
  add(count: number): void;
  /** The list now: files, those kept, restored, done, failed. */
  counts(): { files: number; kept: number; restored: number; done: number; failed: number };
}

declare global {
  interface Window {
    persistMany: PersistManyPage;
  }
}

const tracker = new UploadTracker({ persist: true });
tracker.subscribe(() => {});

function bytesOf(seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(1024);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31 + seed * 7) & 255;
  return bytes;
}

window.persistMany = {
  add(count) {
    const files = Array.from({ length: count }, (_, n) => new File([bytesOf(n)], `file-${n}.bin`, { type: 'application/octet-stream' }));
    for (let at = 0; at < count; at += 500) setTimeout(() => tracker.add(files.slice(at, at + 500)), 0);
  },
  counts() {
    const files = tracker.getSnapshot();
    return {
      files: files.length,
      kept: files.filter((file) => file.persistence === 'kept').length,
      restored: files.filter((file) => file.restored).length,
      done: files.filter((file) => file.status === 'done').length,
      failed: files.filter((file) => file.status === 'error' || file.status === 'aborted').length,
    };
  },
};
