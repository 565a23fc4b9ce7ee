'use client';
import { useEffect, useMemo, useReducer, useRef } from 'react';

/*
 * How a batch of thousands of files added at once reaches the page: some more rows a frame, so that no
 * render mounts thousands of rows in one task (a `useSyncExternalStore` update renders synchronously: React
 * cannot yield in it). The first step adds FIRST_STEP rows; each next step is sized from the time the last
 * one took, frame to frame (the render, and the style and layout of the rows it added), so that a step costs
 * about STEP_BUDGET_MS: a cheap row grows the list fast, an expensive row or a slow machine slowly, and
 * neither makes a task over 50 ms (the Long Tasks API's threshold). A step at most doubles or halves the
 * last, within MIN_STEP and MAX_STEP rows.
 */
export const FIRST_STEP = 100;
export const MIN_STEP = 20;
export const MAX_STEP = 1000;
const STEP_BUDGET_MS = 25;

/**
 * Where frames stop (a hidden tab pauses `requestAnimationFrame`), the list still grows after this many
 * milliseconds, by the last step (a step on the timer is not timed: nothing is drawn).
 */
const PAUSED_FRAME_MS = 100;

/** The next step's rows, from the last step's rows and how long it took (ms, frame to frame). */
export function nextGrowthStep(step: number, tookMs: number): number {
  const scaled = (step * STEP_BUDGET_MS) / Math.max(tookMs, 1);
  const bounded = Math.min(Math.max(scaled, step / 2), step * 2);
  return Math.round(Math.min(Math.max(bounded, MIN_STEP), MAX_STEP));
}

/**
 * `list` as the page should draw it: the same array when it has at most one growth step more items than the
 * last render showed; else its first items, one step more than last shown, and the rest in the next frames
 * (one render a frame, each step sized as said above). Items removed or changed show at once; only
 * growth is spread.
 */
export function useGrowingList<T>(list: readonly T[]): readonly T[] {
  // Read in render, written after commit (never a render of its own): the items the last committed render
  // showed, the rows of the next step, and when the step in progress was started (a frame's time, 0 if none).
  const growth = useRef({ shown: 0, step: FIRST_STEP, startedAt: 0 });
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
    const frame = requestAnimationFrame((now) => {
      if (state.startedAt > 0) state.step = nextGrowthStep(state.step, now - state.startedAt);
      state.startedAt = now;
      grow();
    });
    const timer = setTimeout(() => {
      state.startedAt = 0;
      grow();
    }, PAUSED_FRAME_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [visible, list]);
  return visible;
}
