'use client';
import { useEffect, useMemo, useReducer, useRef } from 'react';

/*
 * How a batch of thousands of files added at once reaches the page: some more rows a frame, so that no
 * frame lays out thousands of new rows, and no render mounts them in one task (a `useSyncExternalStore`
 * update, as `useTrackedIds` reads, renders synchronously: React cannot yield in it; `useS3Upload`'s
 * transitions can, but their commit and the frame's style and layout are still one task each). The first
 * step adds FIRST_STEP rows. Each step is timed, frame to frame (the render, and the style and layout of the
 * frame), and the frame's time is split in two:
 * - what a row costs: the least time per added row any step took so far. It is an upper bound of a row's own
 *   cost (a frame also has work of its own), tightest while the list is short;
 * - the rest of the frame: rendering and laying out the rows already shown, and the page's other work. It
 *   grows with the list, and is paid every frame whatever the step.
 * The next step is as many rows as fit beside that rest in a frame of FRAME_BUDGET_MS: a cheap row grows the
 * list fast, an expensive row or a slow machine slowly, and where the rest alone fills the frame the steps
 * fall to MIN_STEP. The aim is no task over 50 ms (the Long Tasks API's threshold). A row added to a long
 * document costs more than the row cost learned on a short one, so a step grows by at most half the last
 * (a step that overshoots then stays within about 50 ms), and after a frame over 50 ms that frame's time per
 * row is a row's cost. Steps are within MIN_STEP and MAX_STEP rows. bench/design-measurements.md has the
 * rules tried (a whole frame of 25 ms; doubling steps) and `pnpm --filter @upbeam/bench bench:growth`
 * measures them.
 */
export const FIRST_STEP = 100;
export const MIN_STEP = 20;
export const MAX_STEP = 1000;
/** A growth frame's time, milliseconds: the rows added and the rest of the frame. */
const FRAME_BUDGET_MS = 35;
/** How much a step may grow over the last (a factor). */
const MOST_GROWTH = 1.5;
/** A frame over this many milliseconds is long (the Long Tasks API's threshold for a task). */
const LONG_FRAME_MS = 50;
/** Below any row's real cost, milliseconds: keeps a frame time of 0 from dividing by 0. */
const LEAST_ROW_MS = 0.001;

/**
 * Where frames stop (a hidden tab pauses `requestAnimationFrame`), the list still grows after this many
 * milliseconds, by the last step (a step on the timer is not timed: nothing is drawn).
 */
const PAUSED_FRAME_MS = 100;

/** What the growth has learned: the next step's rows, and what a row costs (ms; `Infinity` before a timed step). */
export interface Growth {
  step: number;
  rowMs: number;
}

/** The growth after a step of `growth.step` rows took `tookMs` milliseconds, frame to frame. */
export function nextGrowth(growth: Growth, tookMs: number): Growth {
  const perRowMs = tookMs / growth.step;
  // A long frame: its rows cost more than learned (a row added to a long document costs more than one added to
  // a short one). From then on a row costs at most what this frame's did, the whole frame counted.
  const rowMs = Math.max(tookMs > LONG_FRAME_MS ? perRowMs : Math.min(growth.rowMs, perRowMs), LEAST_ROW_MS);
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
 * (one render a frame, each step sized as said above). Items removed or changed show at once; only
 * growth is spread. `schedule` runs the update that shows the next step (default: at once; `useS3Upload`
 * gives its transitions' pacer, `use-transition-pacer.ts`, which runs it unpaced).
 */
export function useGrowingList<T>(list: readonly T[], schedule: Schedule = now): readonly T[] {
  // Read in render, written after commit (never a render of its own): the items the last committed render
  // showed, the growth learned so far, and when the step in progress was started (a frame's time, 0 if none).
  const growth = useRef({ shown: 0, step: FIRST_STEP, rowMs: Infinity, startedAt: 0 });
  const [, grow] = useReducer((frames: number) => frames + 1, 0);
  const limit = growth.current.shown + growth.current.step;
  const visible = useMemo(() => (list.length <= limit ? list : list.slice(0, limit)), [list, limit]);
  useEffect(() => {
    const state = growth.current;
    state.shown = visible.length;
    if (visible.length === list.length) {
      state.startedAt = 0;
      return;
    }
    // The next rows at the next frame (or after a timer where frames do not come), whichever comes first.
    const frame = requestAnimationFrame((frameAt) => {
      if (state.startedAt > 0) Object.assign(state, nextGrowth(state, frameAt - state.startedAt));
      state.startedAt = frameAt;
      schedule(grow, false);
    });
    const timer = setTimeout(() => {
      state.startedAt = 0;
      schedule(grow, false);
    }, PAUSED_FRAME_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [visible, list, schedule]);
  return visible;
}
