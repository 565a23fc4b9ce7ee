import type { TrackedFile } from './tracked-file';
import { countFile, noTotals, type SummaryTotals } from './upload-summary';

/** Whether `change` sets a field of `file` to another value (an absent field and `undefined` are the same). */
function changes(file: TrackedFile, change: Partial<TrackedFile>): boolean {
  // A loop, not `Object.entries`: it runs for every progress event of every file (50,000 files: no arrays made).
  for (const key in change) if (!Object.is(file[key as keyof TrackedFile], change[key as keyof TrackedFile])) return true;
  return false;
}

/**
 * The tracker's files, in the order added, with structural sharing: a change makes a new object for the
 * changed file only (the others keep their identity, so a memoized row skips them), and the snapshot array
 * is made again only when something changed, on its first read after the change (so thousands of progress
 * events between two frames cost one array, not one per event).
 */
export class TrackedFiles {
  readonly #byId = new Map<string, TrackedFile>();
  /**
   * The last snapshot, `undefined` once something changed (made again on its next read): the list never holds the
   * files' previous objects after a change (50,000 of them, after a cancel of every file).
   */
  #snapshot: readonly TrackedFile[] | undefined = [];
  /** The ids, `undefined` once a file was added or removed (a file's change leaves the ids as they are). */
  #ids: readonly string[] | undefined = [];
  /** The summary's totals, kept file by file (a change counts the old file out and the new one in). */
  #totals = noTotals();

  /** The totals of the files now (the same object, changed in place: read it, do not keep it). */
  totals(): SummaryTotals {
    return this.#totals;
  }

  get(id: string): TrackedFile | undefined {
    return this.#byId.get(id);
  }

  values(): IterableIterator<TrackedFile> {
    return this.#byId.values();
  }

  /** Adds `files` after the others. */
  append(files: readonly TrackedFile[]): void {
    for (const file of files) {
      const before = this.#byId.get(file.id);
      if (before) countFile(this.#totals, before, -1);
      this.#byId.set(file.id, file);
      countFile(this.#totals, file, 1);
    }
    this.#snapshot = undefined;
    this.#ids = undefined;
  }

  /**
   * Replaces file `id` with a copy holding `change` (it keeps its place); false, and the same object kept,
   * when there is no such file or `change` changes nothing (a progress event repeating the last count).
   */
  update(id: string, change: Partial<TrackedFile>): boolean {
    const current = this.#byId.get(id);
    if (!current) return false;
    if (!changes(current, change)) return false;
    const changed = { ...current, ...change };
    this.#byId.set(id, changed);
    countFile(this.#totals, current, -1);
    countFile(this.#totals, changed, 1);
    this.#snapshot = undefined;
    return true;
  }

  /** Takes file `id` off the list; false when there is no such file. */
  delete(id: string): boolean {
    const current = this.#byId.get(id);
    const deleted = this.#byId.delete(id);
    if (current) countFile(this.#totals, current, -1);
    if (deleted) {
      this.#snapshot = undefined;
      this.#ids = undefined;
    }
    return deleted;
  }

  /** Takes every file off the list; the arrays handed out before are let go at once (no snapshot of 50,000 kept). */
  clear(): void {
    this.#byId.clear();
    this.#totals = noTotals();
    this.#snapshot = [];
    this.#ids = [];
  }

  /** The files in the order added: the same array until something changes. */
  snapshot(): readonly TrackedFile[] {
    return (this.#snapshot ??= [...this.#byId.values()]);
  }

  /** The files' ids in the order added: the same array until a file is added or removed (not when one changes). */
  ids(): readonly string[] {
    return (this.#ids ??= [...this.#byId.keys()]);
  }
}
