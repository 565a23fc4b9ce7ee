/**
 * Pauses and resumes a multipart upload, as an `AbortController` cancels one: pass it as
 * `pauseController` to `uploadFile` (the `UploadTracker` and the React hook do, for `pause(id)` and
 * `resume(id)`). Pausing stops the parts in flight at once (a part in flight is sent again from its first
 * byte on resume) and keeps the multipart upload on storage; cancelling a paused upload aborts it.
 *
 * @example
 * const pause = new PauseController();
 * const done = uploadFile(file, { pauseController: pause });
 * pause.pause();
 * pause.resume();
 */
export class PauseController {
  #paused = false;
  readonly #listeners = new Set<() => void>();

  /** Whether the upload is paused. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Stops the parts in flight; the upload waits for {@link PauseController.resume}. */
  pause(): void {
    this.#set(true);
  }

  /** Continues a paused upload with the parts it still lacks. */
  resume(): void {
    this.#set(false);
  }

  /** Calls `listener` after every change of `paused`; returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(paused: boolean): void {
    if (paused === this.#paused) return;
    this.#paused = paused;
    for (const listener of this.#listeners) listener();
  }
}
