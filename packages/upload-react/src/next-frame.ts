'use client';
import { useEffect, useLayoutEffect } from 'react';

/*
 * When a commit is on screen, and what drawing it cost: how the transitions' pacer (`use-transition-pacer.ts`)
 * and a growing list (`use-growing-list.ts`) time their renders.
 */

/**
 * Where frames stop (a hidden tab pauses `requestAnimationFrame`; a test's DOM has none), {@link afterNextFrame}
 * goes on after this many milliseconds without a frame's time.
 */
const PAUSED_FRAME_MS = 100;

/** `useLayoutEffect` in the browser (the commit's time, before its frame), `useEffect` on the server (no warning). */
export const useCommitEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Calls `then(frameMs)` once the next frame is drawn (in a task after it), with the milliseconds from the
 * frame's start to then (its callbacks, style, layout and paint), or `then(undefined)` where no frame comes
 * within `PAUSED_FRAME_MS`. Returns a function that calls it off (nothing is called after it).
 */
export function afterNextFrame(then: (frameMs: number | undefined) => void): () => void {
  let frame: number | undefined;
  let drawn: ReturnType<typeof setTimeout> | undefined;
  const callOff = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(paused);
    clearTimeout(drawn);
  };
  const once = (frameMs: number | undefined) => {
    callOff();
    then(frameMs);
  };
  const paused = setTimeout(() => once(undefined), PAUSED_FRAME_MS);
  if (typeof requestAnimationFrame === 'function') {
    frame = requestAnimationFrame(() => {
      frame = undefined;
      clearTimeout(paused);
      const frameAt = performance.now();
      // The frame's style, layout and paint come after its callbacks: a task queued now runs after them.
      drawn = setTimeout(() => once(performance.now() - frameAt), 0);
    });
  }
  return callOff;
}
