'use client';
import { createPacedScheduler, type PacedSchedule } from '@upbeam/upload-client';
import { startTransition, useState } from 'react';
import { afterNextFrame, useCommitEffect } from './next-frame';

/**
 * Runs state updates in React transitions, one at a time, leaving the uploads most of the main thread: the
 * client's paced scheduler (`createPacedScheduler`), paced by the transitions' renders. React renders a transition in slices of
 * about 5 ms, yielding to the browser between them, where an update from `useSyncExternalStore` renders in one
 * task (a list of 5,000 rows given their files takes tens of milliseconds to render). Three rules:
 * - One transition at a time: an update scheduled while one is rendering waits for it to be drawn, then
 *   runs with every other update scheduled meanwhile (each once). A transition started during another's
 *   render joins it and React starts that render over: with a new snapshot every frame, a long list would
 *   start over every frame and show nothing new.
 * - Each render is timed: its slices and commit (start to commit, wall time), and the style and layout of
 *   the frame that draws it. The tracker's own notifications cannot see it: it runs after their task.
 * - A paced update (a snapshot of uploads in progress) then waits as the scheduler's share says (19 times that
 *   time, at most 1 s); an unpaced one (the next rows of a growing list, whose steps are sized by their own
 *   frame time; the last snapshot of a batch) runs as soon as the last is drawn, with the paced ones queued.
 */
export class TransitionPacer {
  /** Tells the scheduler the transition started is drawn, and what it cost (unset: none is waiting). */
  #done: ((costMs?: number) => void) | undefined;
  #startedAt = 0;

  /** `start(updates)` calls the updates inside `startTransition`, with one that marks the commit. */
  constructor(start: (updates: (() => void)[]) => void) {
    this.schedule = createPacedScheduler({
      run: (updates, done) => {
        this.#done = done;
        this.#startedAt = performance.now();
        start(updates);
      },
    });
  }

  /**
   * Runs `update` (a stable function that sets state, reading what it sets when called) in the next
   * transition; `paced`: after the pause the last render earned, else as soon as the last transition is drawn.
   */
  readonly schedule: PacedSchedule;

  /** The transition committed (called from its commit): once its frame is drawn, the next may start. */
  committed(): void {
    const done = this.#done;
    if (!done) return;
    this.#done = undefined;
    const renderMs = performance.now() - this.#startedAt;
    afterNextFrame((frameMs) => done(frameMs === undefined ? undefined : renderMs + frameMs));
  }
}

/** A {@link TransitionPacer} for the component's life: its `schedule` is the same function on every render. */
export function useTransitionPacer(): TransitionPacer['schedule'] {
  // Counts the transitions started; the commit effect below sees each one committed.
  const [started, setStarted] = useState(0);
  const [pacer] = useState(
    () =>
      new TransitionPacer((updates) =>
        startTransition(() => {
          for (const update of updates) update();
          setStarted((count) => count + 1);
        }),
      ),
  );
  useCommitEffect(() => pacer.committed(), [started, pacer]);
  return pacer.schedule;
}
