'use client';
import { startTransition, useState } from 'react';
import { afterNextFrame, useCommitEffect } from './next-frame';

/**
 * Most of the main thread a list's renders may take, with the browser's style and layout of their frames: after a
 * render that cost `d` ms, the next paced one starts `d * (1 / share - 1)` ms later at the earliest (19 d at a
 * twentieth, at most `MAX_PAUSE_MS`). The uploads keep the rest of the thread: their next request starts in a
 * network answer's task, which waits while the page renders. At a tenth, a plain list of 5,000 rows held the
 * uploads at about 0.86x the bare upload loop's files per second on a machine of two cores, at a twentieth about
 * 0.96x (bench/design-measurements.md has the runs). A list that draws in a few ms still follows the uploads'
 * progress events (20 a second); one that takes 40 ms is drawn about once a second. The same share as the
 * tracker's notifications (`frame-notifier.ts` of `@upbeam/upload-client`), which cannot see a transition's
 * render: it runs after the notification's task.
 */
const LIST_SHARE = 0.05;

/** Longest pause a slow render earns, in milliseconds: a paced update still renders once a second at worst. */
const MAX_PAUSE_MS = 1000;

/**
 * Runs state updates in React transitions, one at a time, leaving the uploads most of the main thread.
 * React renders a transition in slices of about 5 ms, yielding to the browser between them, where an update
 * from `useSyncExternalStore` renders in one task (a list of 5,000 rows given their files takes tens of
 * milliseconds to render). Three rules:
 * - One transition at a time: an update scheduled while one is rendering waits for it to be drawn, then
 *   runs with every other update scheduled meanwhile (each once). A transition started during another's
 *   render joins it and React starts that render over: with a new snapshot every frame, a long list would
 *   start over every frame and show nothing new.
 * - Each render is timed: its slices and commit (start to commit, wall time), and the style and layout of
 *   the frame that draws it.
 * - A paced update (a snapshot of uploads in progress) then waits as `LIST_SHARE` says; an unpaced one (the
 *   next rows of a growing list, whose steps are sized by their own frame time; the last snapshot of a batch)
 *   runs as soon as the last is drawn, with the paced ones queued.
 */
export class TransitionPacer {
  readonly #queued = new Set<() => void>();
  #unpacedQueued = false;
  /** A transition started and its frame not yet measured. */
  #waiting = false;
  #startedAt = 0;
  #notBefore = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `start(updates)` calls the updates inside `startTransition`, with one that marks the commit. */
  constructor(private readonly start: (updates: (() => void)[]) => void) {}

  /**
   * Runs `update` (a stable function that sets state, reading what it sets when called) in the next
   * transition; `paced`: as `LIST_SHARE` says, else as soon as the last transition is drawn.
   */
  readonly schedule = (update: () => void, paced = true): void => {
    this.#queued.add(update);
    if (!paced) this.#unpacedQueued = true;
    this.#startWhenFree();
  };

  /** The transition committed (called from its commit): once its frame is drawn, the next may start. */
  committed(): void {
    if (!this.#waiting) return;
    const renderMs = performance.now() - this.#startedAt;
    afterNextFrame((frameMs) => {
      if (frameMs !== undefined) {
        this.#notBefore = performance.now() + Math.min((renderMs + frameMs) * (1 / LIST_SHARE - 1), MAX_PAUSE_MS);
      }
      this.#waiting = false;
      this.#startWhenFree();
    });
  }

  #startWhenFree(): void {
    clearTimeout(this.#timer);
    if (this.#waiting || this.#queued.size === 0) return;
    const wait = this.#unpacedQueued ? 0 : this.#notBefore - performance.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => this.#startWhenFree(), wait);
      return;
    }
    const updates = [...this.#queued];
    this.#queued.clear();
    this.#unpacedQueued = false;
    this.#waiting = true;
    this.#startedAt = performance.now();
    this.start(updates);
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
