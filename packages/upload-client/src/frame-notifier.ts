/**
 * Where there is no animation frame (Node, a web worker): listeners hear of changes at most this often, in
 * milliseconds, about one frame of a 60 Hz screen.
 */
const FRAME_MS = 16;

/**
 * Where frames exist but may stop (a hidden tab pauses `requestAnimationFrame`), a timer still delivers the
 * changes after this many milliseconds; in a visible tab the frame comes first.
 */
const PAUSED_FRAME_MS = 100;

/**
 * Most of the main thread the listeners may take, with the work they start (a framework's render in the microtasks
 * after them, the browser's style and layout of the frame): after a call that took `d` ms, the next comes
 * `d * (1 / share - 1)` ms later at the earliest (19 d at a twentieth, at most `MAX_PAUSE_MS`). The uploads keep
 * the rest of the thread: their next request starts in a network answer's task, which waits while a render runs
 * (with a quarter, a page drawing 5,000 rows fell well below the bare upload loop's files per second; with a
 * tenth, a list of 5,000 rows each reading its file read about 0.89x of it on a machine of two cores, with a
 * twentieth about 0.93x: bench/design-measurements.md). A list cheap to draw (a few ms: the components'
 * virtualized list) still follows every frame or nearly; one that takes 40 ms to draw is drawn about once a
 * second.
 */
const LISTENER_SHARE = 0.05;

/**
 * Longest pause a slow listener earns, in milliseconds: the listeners still hear of changes once a second
 * at worst, however slow their render.
 */
const MAX_PAUSE_MS = 1000;

/**
 * Tells listeners that something changed, at most once per animation frame: every change between two
 * calls makes one call. A page drawing thousands of files then renders once per frame, not once per
 * progress event, and less often when its render is slow (see `LISTENER_SHARE`). A change is never lost:
 * the call after the last change always comes, within a frame (`FRAME_MS` where there are no frames,
 * `PAUSED_FRAME_MS` in a hidden tab) plus the pause a slow listener earned (`MAX_PAUSE_MS` at most).
 */
export class FrameNotifier {
  readonly #listeners = new Set<() => void>();
  #pending = false;
  #frame: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** `performance.now()` before which the listeners are not called again (their last call was slow). */
  #notBefore = 0;

  /** Registers `listener`; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Something changed: the listeners are called at the next frame (once, however many changes come before it). */
  notify(): void {
    if (this.#pending) return;
    this.#pending = true;
    const wait = this.#notBefore - performance.now();
    if (wait > 0) this.#timer = setTimeout(() => this.#schedule(), wait);
    else this.#schedule();
  }

  /** Calls the listeners at the next frame, or after a timer where frames do not come. */
  #schedule(): void {
    if (typeof requestAnimationFrame === 'function') {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = undefined;
        this.#flush();
      });
      this.#timer = setTimeout(this.#flush, PAUSED_FRAME_MS);
    } else {
      this.#timer = setTimeout(this.#flush, FRAME_MS);
    }
  }

  readonly #flush = (): void => {
    if (!this.#pending) return;
    this.#pending = false;
    // Whichever of the frame and the timer comes first delivers; the other is called off.
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    clearTimeout(this.#timer);
    this.#frame = undefined;
    this.#timer = undefined;
    const started = performance.now();
    for (const listener of [...this.#listeners]) listener();
    // The cost is measured up to the next task: it then counts the microtasks the listeners queued (React's
    // render of a store change, Vue's and Svelte's effects) and, called at a frame, the browser's style,
    // layout and paint of what they changed, which for a long list is most of it.
    // In a hidden tab the browser runs that timer late (once a second, or once a minute under Chrome's
    // intensive throttling): the measure would hold the wait, not the listeners' work, so none is taken
    // there (no frame is drawn either).
    setTimeout(() => {
      if (typeof document !== 'undefined' && document.hidden) return;
      const ended = performance.now();
      this.#notBefore = ended + Math.min((ended - started) * (1 / LISTENER_SHARE - 1), MAX_PAUSE_MS);
    }, 0);
  };
}
