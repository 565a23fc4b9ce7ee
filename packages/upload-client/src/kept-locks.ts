/**
 * The Web Locks of a kept queue (`persisted-queue.ts`): the tab that uploads a kept file holds a lock its record
 * names, so that another tab leaves the file alone until that tab is gone. One lock per write of the queue (up to
 * 500 files kept at once), not one per file: chromium grants a lock in ~0.6 ms, so 50,000 locks took half a
 * minute to take on a restore, with tasks of a second as their grants came back (bench/notes/persist-scale.md). A
 * lock goes when the last file this tab holds under it leaves the queue. Records kept by an older version name no
 * lock: theirs is the file's own (`<queue>:<id>`), a lock of one file.
 */
import { tryLock, waitForLock, type ReleaseLock } from './web-lock';

/** The locks of one kept queue that this tab holds, and how many of its kept files each holds. */
export class KeptLocks {
  readonly #prefix: string;
  readonly #held = new Map<string, { release: ReleaseLock; files: number }>();
  /** Requests in flight, per lock: the files of one lock ask for it once. */
  readonly #asking = new Map<string, Promise<boolean>>();

  /** @param prefix - The queue's part of every lock's name (`upbeam-queue:<name>`). */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** The lock of a file kept without one named (an older version's record): the file's own. */
  ofFile(id: string): string {
    return `${this.#prefix}:${id}`;
  }

  /** A new lock for files about to be kept, held by this tab with no file yet; `undefined` if the browser refused it. */
  async fresh(): Promise<string | undefined> {
    // 64 random bits: unique among the origin's tabs (`getRandomValues`, there where `randomUUID` needs a secure context).
    const [high, low] = crypto.getRandomValues(new Uint32Array(2));
    const name = `${this.#prefix}:w-${high!.toString(36)}-${low!.toString(36)}`;
    const release = await tryLock(name);
    if (!release) return undefined;
    this.#held.set(name, { release, files: 0 });
    return name;
  }

  /** One more file held under lock `name`, which this tab holds. */
  hold(name: string): void {
    this.#held.get(name)!.files += 1;
  }

  /** One file fewer under lock `name`: the lock goes with the last one (or at once when it holds none). */
  drop(name: string): void {
    const held = this.#held.get(name);
    if (!held) return;
    held.files -= 1;
    if (held.files <= 0) {
      held.release();
      this.#held.delete(name);
    }
  }

  /** Takes lock `name` if no tab holds it, without waiting (this tab's own counts as taken); `false` when another tab holds it. */
  claim(name: string): Promise<boolean> {
    return this.#ask(name, 'claim', tryLock);
  }

  /** Waits until the tab that holds lock `name` gives it up, and takes it. */
  async wait(name: string): Promise<void> {
    await this.#ask(name, 'wait', waitForLock);
  }

  #ask(name: string, kind: 'claim' | 'wait', lock: (name: string) => Promise<ReleaseLock | undefined>): Promise<boolean> {
    if (this.#held.has(name)) return Promise.resolve(true);
    const key = `${kind} ${name}`;
    let asking = this.#asking.get(key);
    if (!asking) {
      asking = lock(name).then((release) => {
        this.#asking.delete(key);
        if (release) this.#held.set(name, { release, files: 0 });
        return release !== undefined;
      });
      this.#asking.set(key, asking);
    }
    return asking;
  }
}
