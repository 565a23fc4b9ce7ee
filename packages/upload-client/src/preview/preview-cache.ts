/**
 * The previews made so far, by file and size: one decode per file however many rows ask for it, and again
 * none when a virtual list scrolls a row back into view. An entry in use (acquired, not yet released) is
 * never closed; an entry no row uses waits in a least-recently-used list of at most `keep` entries, the
 * oldest closed beyond that. `clear()` closes what no row uses and lets go of the rest as soon as it is
 * released. Generic over the value (an `ImageBitmap` in the browser) so that its rules are tested anywhere.
 */
export interface CacheEntry<V> {
  readonly file: object;
  readonly size: number;
  /** The value once made: `null` where the file gives none (not an image, undecodable); kept so as not to try again. */
  readonly made: Promise<V | null>;
  /** Aborted when the last user releases the entry before its value is made (it then leaves its queue). */
  readonly abort: AbortController;
  value?: V | null;
  users: number;
  /** Let go of by `clear()` while in use: closed on its last release, not kept. */
  dropped: boolean;
}

/** A user's hold on an entry: the value when made, and `release()` (once; later calls do nothing). */
export interface Held<V> {
  made: Promise<V | null>;
  release(): void;
}

export interface PreviewCache<V> {
  /**
   * The entry of `file` at `size`, made with `make` (given the entry's signal) the first time; held until
   * `release()`. A `make` that rejects leaves no entry (the next call makes it again).
   */
  acquire(file: object, size: number, make: (signal: AbortSignal) => Promise<V | null>): Held<V>;
  /** Closes every value no one holds and forgets every entry; those held are closed on their last release. */
  clear(): void;
  /** Values made and not closed yet (held or kept). */
  readonly open: number;
  /** Entries known (held, being made or kept). */
  readonly size: number;
}

export function previewCache<V>({ keep, close }: { keep: number; close: (value: V) => void }): PreviewCache<V> {
  const byFile = new Map<object, Map<number, CacheEntry<V>>>();
  /** Entries no one holds, oldest first (a `Set` keeps insertion order). */
  const idle = new Set<CacheEntry<V>>();
  let open = 0;
  let count = 0;

  const forget = (entry: CacheEntry<V>) => {
    idle.delete(entry);
    const sizes = byFile.get(entry.file);
    if (sizes?.get(entry.size) !== entry) return;
    sizes.delete(entry.size);
    count -= 1;
    if (sizes.size === 0) byFile.delete(entry.file);
  };

  const closeValue = (entry: CacheEntry<V>) => {
    if (entry.value) {
      close(entry.value);
      open -= 1;
    }
    entry.value = null;
  };

  const evict = () => {
    for (const entry of idle) {
      if (idle.size <= keep) break;
      forget(entry);
      closeValue(entry);
    }
  };

  const release = (entry: CacheEntry<V>) => {
    entry.users -= 1;
    if (entry.users > 0) return;
    if (entry.value === undefined) {
      // Not made yet: stop it (it leaves the decoding queue; one already decoding ends and is closed).
      entry.abort.abort(new DOMException('No row shows this preview any more', 'AbortError'));
      forget(entry);
      return;
    }
    if (entry.dropped) return closeValue(entry);
    idle.add(entry);
    evict();
  };

  return {
    get open() {
      return open;
    },
    get size() {
      return count;
    },
    acquire(file, size, make) {
      let sizes = byFile.get(file);
      let entry = sizes?.get(size);
      if (!entry) {
        const abort = new AbortController();
        const made = make(abort.signal).then((value) => {
          if (value) open += 1;
          created.value = value;
          // Made after its last user left: nobody will show it.
          if (created.users === 0) {
            forget(created);
            closeValue(created);
          }
          return created.value;
        });
        const created: CacheEntry<V> = { file, size, made, abort, users: 0, dropped: false };
        made.catch(() => forget(created));
        entry = created;
        if (!sizes) byFile.set(file, (sizes = new Map()));
        sizes.set(size, entry);
        count += 1;
      }
      const held = entry;
      idle.delete(held);
      held.users += 1;
      let released = false;
      return {
        made: held.made,
        release: () => {
          if (released) return;
          released = true;
          release(held);
        },
      };
    },
    clear() {
      for (const sizes of [...byFile.values()]) {
        for (const entry of [...sizes.values()]) {
          forget(entry);
          if (entry.users > 0) entry.dropped = true;
          else closeValue(entry);
        }
      }
    },
  };
}
