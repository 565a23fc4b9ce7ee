import { describe, expect, it } from 'vitest';
import type { UploadClientError } from './errors';
import type { PersistedFile, PersistedQueue } from './persisted-queue';
import type { PersistedList } from './persistence';
import { restoreKept } from './restore-kept';
import type { TrackedFile } from './tracked-file';

// The restore's decisions, in Node (no IndexedDB nor Web Locks here: the browser suite
// examples/react-vite/test/persist.e2e.test.ts runs the real store and locks in chromium and Firefox). The kept
// queue is a stand-in, named so: which files it holds, which locks are free, when another tab lets go.

function kept(id: string, file: File = new File([`bytes of ${id}`], `${id}.bin`)): PersistedFile {
  return { id, file, options: {}, addedAt: Number(id.slice(1)) };
}

/** A stand-in kept queue: `files` kept, `heldElsewhere` locked by another tab until `letGoElsewhere(id, stillKept)`. */
function standInQueue(files: PersistedFile[], heldElsewhere: string[] = []) {
  const waiting = new Map<string, (file: PersistedFile | undefined) => void>();
  const letGo: string[] = [];
  const queue = {
    list: async () => files,
    claimAll: async (kept: PersistedFile[]) => kept.map((file) => !heldElsewhere.includes(file.id)),
    takeOver: (file: PersistedFile) => new Promise<PersistedFile | undefined>((resolve) => waiting.set(file.id, resolve)),
    letGo: (id: string) => void letGo.push(id),
  } as unknown as PersistedQueue;
  const letGoElsewhere = (id: string, stillKept: boolean) => waiting.get(id)!(stillKept ? files.find((f) => f.id === id) : undefined);
  return { queue, letGoElsewhere, letGo };
}

function recordingTarget(tracked: string[] = []) {
  const list = new Map<string, string>(tracked.map((id) => [id, 'picked']));
  const errors = new Map<string, UploadClientError>();
  // The tracker's list as the restore reaches it: a file is a stand-in (never multipart: no journal to read here).
  const target: PersistedList = {
    getFile: (id) => (list.has(id) ? ({ id } as TrackedFile) : undefined),
    getIds: () => [...list.keys()],
    optionsOf: () => ({}),
    add: (files) => files.forEach(({ kept, status }) => list.set(kept.id, status)),
    change: (id, change) => {
      if (change.status === 'queued') list.set(id, 'queued-started');
      if (change.status === 'error') {
        list.set(id, 'error');
        errors.set(id, change.error as UploadClientError);
      }
    },
    remove: (id) => list.delete(id),
  };
  return { target, list, errors };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('restoreKept', () => {
  it('a file kept with a transform is sent again (transformed again) by a tracker with one, and fails without one', async () => {
    const photo = { ...kept('f1'), transformed: true };
    const withTransform = recordingTarget();
    withTransform.target.optionsOf = () => ({ transform: (file) => file });
    await restoreKept(standInQueue([photo]).queue, withTransform.target);
    expect(Object.fromEntries(withTransform.list)).toEqual({ f1: 'queued-started' });
    const without = recordingTarget();
    await restoreKept(standInQueue([photo]).queue, without.target);
    expect(Object.fromEntries(without.list)).toEqual({ f1: 'error' });
    expect(without.errors.get('f1')?.code).toBe('INVALID_OPTIONS');
  });

  it('starts the kept files no tab holds, skips those already tracked, and shows the others elsewhere', async () => {
    const { queue } = standInQueue([kept('f1'), kept('f2'), kept('f3')], ['f3']);
    const { target, list } = recordingTarget(['f2']);
    await restoreKept(queue, target);
    expect(Object.fromEntries(list)).toEqual({ f1: 'queued-started', f2: 'picked', f3: 'elsewhere' });
  });

  it('takes a file over when the other tab goes, or drops it when that tab finished it', async () => {
    const { queue, letGoElsewhere } = standInQueue([kept('f1'), kept('f2')], ['f1', 'f2']);
    const { target, list } = recordingTarget();
    await restoreKept(queue, target);
    letGoElsewhere('f1', true);
    letGoElsewhere('f2', false);
    await settle();
    await settle();
    expect(Object.fromEntries(list)).toEqual({ f1: 'queued-started' });
  });

  it('gives the lock back when the file was removed from the list while it waited', async () => {
    const { queue, letGoElsewhere, letGo } = standInQueue([kept('f1')], ['f1']);
    const { target, list } = recordingTarget();
    await restoreKept(queue, target);
    list.delete('f1');
    letGoElsewhere('f1', true);
    await settle();
    expect(letGo).toEqual(['f1']);
    expect(list.size).toBe(0);
  });

  it('fails once, with FILE_UNREADABLE, a kept file the browser can no longer read', async () => {
    // A stand-in File whose bytes are gone (as a browser's Blob whose backing file was deleted).
    const gone = new File(['x'], 'gone.jpg');
    Object.defineProperty(gone, 'slice', { value: () => ({ arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')) }) });
    const { queue } = standInQueue([kept('f1', gone)]);
    const { target, list, errors } = recordingTarget();
    await restoreKept(queue, target);
    expect(list.get('f1')).toBe('error');
    expect(errors.get('f1')).toMatchObject({ code: 'FILE_UNREADABLE', message: 'The browser can no longer read gone.jpg: pick it again.' });
  });
});
