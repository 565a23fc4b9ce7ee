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
 * Tells listeners that something changed, at most once per animation frame: every change between two
 * frames makes one call. A page drawing thousands of files then renders once per frame, not once per
 * progress event. A change is never lost: the call after the last change always comes, within a frame
 * (`FRAME_MS` where there are no frames, `PAUSED_FRAME_MS` in a hidden tab).
 */
export class FrameNotifier {
  readonly #listeners = new Set<() => void>();
  #pending = false;
  #frame: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

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
    for (const listener of [...this.#listeners]) listener();
  };
}
