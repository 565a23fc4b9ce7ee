'use client';
import { useMemo, useReducer, useRef, useState } from 'react';
import { afterNextFrame, useCommitEffect } from './next-frame';

/*
 * How a batch of thousands of files added at once reaches the page: some more rows a frame, so that no
 * frame lays out thousands of new rows, and no render mounts them in one task (a `useSyncExternalStore`
 * update, as `useTrackedIds` reads, renders synchronously: React cannot yield in it; `useS3Upload`'s
 * transitions can, but their commit and the frame's style and layout are still one task each). The first
 * step adds FIRST_STEP rows. Each step is timed from its update to its commit (the render, wall time: a
 * transition's slices and what runs between them), then the frame that draws it (style, layout, paint), and
 * that time is split in two:
 * - what a row costs: the least time per added row any step took so far. It is an upper bound of a row's own
 *   cost (a step also has work of its own), tightest while the list is short;
 * - the rest of the step: rendering and laying out the rows already shown, and the page's other work. It
 *   grows with the list, and is paid every step whatever its size.
 * The next step is as many rows as fit beside that rest in FRAME_BUDGET_MS: a cheap row grows the list fast,
 * an expensive row or a slow machine slowly, and where the rest alone fills the budget the steps fall to
 * MIN_STEP. The aim is no task over 50 ms (the Long Tasks API's threshold), and the budget is half of that: on
 * a busy machine (uploads, storage and the browser sharing two cores) a step costs up to twice what the steps
 * before it said. A row added to a long document costs more than the row cost learned on a short one, so a
 * step grows by at most half the last (a step that overshoots then stays within about 50 ms), and after a step
 * over 50 ms that step's time per row is a row's cost. Steps are within MIN_STEP and MAX_STEP rows. A step's
 * wait for its turn (behind a transition of `useS3Upload`'s snapshots, `use-transition-pacer.ts`) is not its
 * cost: timed from frame to frame, a step that waited looked long, and the steps shrank while files uploaded.
 * bench/notes/lists-at-scale.md has the rules tried (a whole frame of 25 ms, timed frame to frame; doubling
 * steps; a budget of 35 ms, which left growth frames over 50 ms on a busy machine) and
 * `pnpm --filter @upbeam/bench bench:growth` measures them.
 */
export const FIRST_STEP = 100;
export const MIN_STEP = 20;
export const MAX_STEP = 1000;
/** A growth step's time, milliseconds: its render and commit, and the frame that draws it (the rows added and the rest); half a long task. */
const FRAME_BUDGET_MS = 25;
/** How much a step may grow over the last (a factor). */
const MOST_GROWTH = 1.5;
/** A step over this many milliseconds is long (the Long Tasks API's threshold for a task). */
const LONG_STEP_MS = 50;
/** Below any row's real cost, milliseconds: keeps a step time of 0 from dividing by 0. */
const LEAST_ROW_MS = 0.001;

/** What the growth has learned: the next step's rows, and what a row costs (ms; `Infinity` before a timed step). */
export interface Growth {
  step: number;
  rowMs: number;
}

/** The growth after a step of `growth.step` rows took `tookMs` milliseconds (update to commit, and its frame). */
export function nextGrowth(growth: Growth, tookMs: number): Growth {
  const perRowMs = tookMs / growth.step;
  // A long step: its rows cost more than learned (a row added to a long document costs more than one added to
  // a short one). From then on a row costs at most what this step's did, the whole step counted.
  const rowMs = Math.max(tookMs > LONG_STEP_MS ? perRowMs : Math.min(growth.rowMs, perRowMs), LEAST_ROW_MS);
  const restMs = Math.max(tookMs - growth.step * rowMs, 0);
  const wanted = (FRAME_BUDGET_MS - restMs) / rowMs;
  const step = Math.round(Math.min(Math.max(Math.min(wanted, growth.step * MOST_GROWTH), MIN_STEP), MAX_STEP));
  return { step, rowMs };
}

/** Runs a state update now: how a list read from `useSyncExternalStore` grows. */
const now = (update: () => void) => update();

/** Runs a state update: at once, or in a transition of `useS3Upload` (`paced` false: as soon as the last is drawn). */
type Schedule = (update: () => void, paced?: boolean) => void;

/**
 * `list` as the page should draw it: the same array when it has at most one growth step more items than the
 * last render showed; else its first items, one step more than last shown, and the rest in the next frames
 * (a step a frame at most, each sized as said above). Items removed or changed show at once; only growth is
 * spread. `schedule` runs the update that shows the next step (default: at once; `useS3Upload` gives its
 * transitions' pacer, `use-transition-pacer.ts`, which runs it unpaced).
 */
export function useGrowingList<T>(list: readonly T[], schedule: Schedule = now): readonly T[] {
  // Read in render, written at commit (never a render of its own): the items the last committed render
  // showed, the growth learned so far, and when the update of the step in progress ran (0: none ran).
  const growth = useRef({ shown: 0, step: FIRST_STEP, rowMs: Infinity, stepRanAt: 0 });
  const [, grow] = useReducer((steps: number) => steps + 1, 0);
  // The update that shows the next step, the same function for the list's life (a pacer runs it once however
  // often it is scheduled before its turn).
  const [nextStep] = useState(() => () => {
    growth.current.stepRanAt = performance.now();
    grow();
  });
  const limit = growth.current.shown + growth.current.step;
  const visible = useMemo(() => (list.length <= limit ? list : list.slice(0, limit)), [list, limit]);
  useCommitEffect(() => {
    const state = growth.current;
    // Any render shows one step more (a snapshot's too); a step is timed only when its own update rendered it.
    const renderMs = visible.length > state.shown && state.stepRanAt > 0 ? performance.now() - state.stepRanAt : undefined;
    state.shown = visible.length;
    state.stepRanAt = 0;
    if (visible.length === list.length) return;
    // The next rows once these are drawn (or after a timer where frames do not come: untimed, by the last step).
    return afterNextFrame((frameMs) => {
      if (renderMs !== undefined && frameMs !== undefined) Object.assign(state, nextGrowth(state, renderMs + frameMs));
      schedule(nextStep, false);
    });
  }, [visible, list, schedule, nextStep]);
  return visible;
}
