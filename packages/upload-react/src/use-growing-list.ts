'use client';
import { useEffect, useMemo, useReducer, useRef } from 'react';

/**
 * Most rows a list may gain in one render: a batch of thousands of files added at once reaches the page
 * this many more a frame, so that no render mounts thousands of rows in one task (a `useSyncExternalStore`
 * update renders synchronously: React cannot yield in it). 5,000 files appear in 25 frames (~0.4 s at 60 Hz).
 */
export const GROWTH_PER_FRAME = 200;

/**
 * Where frames stop (a hidden tab pauses `requestAnimationFrame`), the list still grows after this many
 * milliseconds.
 */
const PAUSED_FRAME_MS = 100;

/**
 * `list` as the page should draw it: the same array when it has at most `GROWTH_PER_FRAME` more items than the
 * last render showed; else its first items, `GROWTH_PER_FRAME` more than last shown, and the rest in the next
 * frames (one render a frame). Items removed or changed show at once; only growth is spread.
 */
export function useGrowingList<T>(list: readonly T[]): readonly T[] {
  // Items the last committed render showed: read in render, written after commit (never a render of its own).
  const shown = useRef(0);
  const [, grow] = useReducer((frames: number) => frames + 1, 0);
  const limit = shown.current + GROWTH_PER_FRAME;
  const visible = useMemo(() => (list.length <= limit ? list : list.slice(0, limit)), [list, limit]);
  useEffect(() => {
    shown.current = visible.length;
    if (visible.length === list.length) return;
    // The next rows at the next frame (or after a timer where frames do not come), whichever comes first.
    const frame = requestAnimationFrame(grow);
    const timer = setTimeout(grow, PAUSED_FRAME_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [visible, list]);
  return visible;
}
