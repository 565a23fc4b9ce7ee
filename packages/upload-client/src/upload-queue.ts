import { UploadClientError } from './errors';

/**
 * Files in flight at once by default: 3. A browser opens 6 connections per host (HTTP/1.1, as s3rver and
 * many S3-compatible servers speak); three single-PUT files leave room for the preparation requests and the
 * page's own. A multipart file sends `queueSize` parts (4) at once on its own, so more files in flight only
 * queue on the same connections.
 */
export const DEFAULT_CONCURRENCY = 3;

/**
 * A job of the queue: `run()` starts one upload and settles when it ends (either way). An object, not a function: the
 * tracker's files are their own jobs (a closure per file cost ~100 bytes at 50,000 files).
 */
export interface Job {
  run(): Promise<unknown>;
}

/**
 * Runs jobs in the order added, at most `limit` at a time (first in, first out). A job that settles frees
 * its place for the next waiting one. Knows nothing of files: the tracker gives it jobs by id.
 */
export class UploadQueue {
  #limit: number;
  readonly #waiting = new Map<string, Job>();
  readonly #running = new Set<string>();
  /** No job starts before this time (ms since the epoch): see {@link UploadQueue.holdUntil}. */
  #heldUntil = 0;
  #holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** Most jobs at once that the server takes now, below `#limit` (see {@link UploadQueue.yieldPlace}). */
  #ceiling = Infinity;

  /**
   * @param limit - Jobs running at once, at least 1.
   * @throws {@link UploadClientError} `INVALID_OPTIONS` naming `concurrency` when `limit` is not an integer of at least 1.
   */
  constructor(limit: number = DEFAULT_CONCURRENCY) {
    this.#limit = checkedLimit(limit);
  }

  /** Changes the limit; more jobs start at once when it grows (running ones are never stopped). */
  setLimit(limit: number): void {
    this.#limit = checkedLimit(limit);
    this.#pump();
  }

  /** Adds a job under `id`: it starts at once when a place is free, else after the jobs added before it. */
  add(id: string, job: Job): void {
    this.#waiting.set(id, job);
    this.#pump();
  }

  /** Drops the job `id` if it has not started; returns whether it was waiting. */
  drop(id: string): boolean {
    return this.#waiting.delete(id);
  }

  /** Drops every job that has not started, at once; returns their ids in the order added. */
  dropAll(): string[] {
    const ids = [...this.#waiting.keys()];
    this.#waiting.clear();
    return ids;
  }

  /**
   * Starts no job before `time` (ms since the epoch; a later time than the one held extends the hold), then
   * starts the waiting ones as places are free. Running jobs go on. The tracker holds its queue while the
   * endpoint's rate limit frees: the files behind do not each ask to be refused.
   */
  holdUntil(time: number): void {
    if (time <= this.#heldUntil) return;
    this.#heldUntil = time;
    this.#pump();
  }

  /**
   * The running job `id` gives its place back and waits first in line, when other jobs run: the server's
   * uploads in flight are full, and one of those jobs ending frees one. Until the queue empties, no more jobs
   * run at once than run now without it.
   * @returns whether it waits (else it is the only one running: nothing of this queue will free a place).
   */
  yieldPlace(id: string, job: Job): boolean {
    const others = this.#running.size - 1;
    if (others < 1 || !this.#running.has(id)) return false;
    this.#ceiling = others;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const [key, value] of [[id, job] as const, ...waiting]) this.#waiting.set(key, value);
    return true;
  }

  /** The id of the job that starts next (the tracker hashes its file ahead), `undefined` when none waits. */
  nextWaiting(): string | undefined {
    return this.#waiting.keys().next().value;
  }

  /** Jobs started and not yet settled. */
  get running(): number {
    return this.#running.size;
  }

  #pump(): void {
    const held = this.#heldUntil - Date.now();
    if (held > 0) {
      clearTimeout(this.#holdTimer);
      this.#holdTimer = setTimeout(() => this.#pump(), held);
      return;
    }
    if (this.#running.size === 0 && this.#waiting.size === 0) this.#ceiling = Infinity;
    for (const [id, job] of this.#waiting) {
      if (this.#running.size >= Math.min(this.#limit, this.#ceiling)) return;
      this.#waiting.delete(id);
      this.#running.add(id);
      void job
        .run()
        .catch(() => {
          // The job reports its own failure (the tracker stores it on the file).
        })
        .finally(() => {
          this.#running.delete(id);
          this.#pump();
        });
    }
  }
}

function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new UploadClientError('INVALID_OPTIONS', `concurrency must be an integer of at least 1. Got ${limit}.`);
  }
  return limit;
}
