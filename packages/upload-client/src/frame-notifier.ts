import { createPacedScheduler } from './paced-scheduler';

/**
 * Tells listeners that something changed, at most once per animation frame: every change between two
 * calls makes one call. A page drawing thousands of files then renders once per frame, not once per
 * progress event, and less often when its render is slow: a paced scheduler (`createPacedScheduler`) whose batch is the
 * listeners' call, at the next frame, timed up to the next task (the listeners take about a twentieth of the
 * thread). A change is never lost: the call after the last change always comes, within a frame (16 ms where
 * there are no frames, 100 ms in a hidden tab) plus the pause a slow listener earned (1 s at most).
 */
export class FrameNotifier {
  readonly #listeners = new Set<() => void>();
  readonly #schedule = createPacedScheduler({
    atFrame: true,
    // A change just after the call (before its cost is measured) is told at the next frame.
    oneAtATime: false,
    run: (tasks, done) => {
      const started = performance.now();
      for (const task of tasks) task();
      // The cost is measured up to the next task: it then counts the microtasks the listeners queued (React's
      // render of a store change, Vue's and Svelte's effects) and, called at a frame, the browser's style,
      // layout and paint of what they changed, which for a long list is most of it.
      // In a hidden tab the browser runs that timer late (once a second, or once a minute under Chrome's
      // intensive throttling): the measure would hold the wait, not the listeners' work, so none is taken
      // there (no frame is drawn either).
      setTimeout(() => done(typeof document !== 'undefined' && document.hidden ? undefined : performance.now() - started), 0);
    },
  });

  readonly #call = (): void => {
    for (const listener of [...this.#listeners]) listener();
  };

  /** Registers `listener`; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Something changed: the listeners are called at the next frame (once, however many changes come before it). */
  notify(): void {
    this.#schedule(this.#call);
  }
}
