'use client';
import {
  defaultRangeExtractor,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  observeWindowOffset,
  observeWindowRect,
  useVirtualizer,
  windowScroll,
  type Range,
  type VirtualizerOptions,
} from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState, type FocusEvent, type HTMLAttributes, type ReactNode } from 'react';

/** A row's height (CSS pixels) guessed until it is drawn and measured: a row of the stylesheet with its bar. */
const ROW_ESTIMATE_PX = 72;

/** Rows mounted beyond each edge of the view, so that Tab and Shift+Tab reach the next row's buttons. */
const OVERSCAN = 4;

/**
 * For this long after a row takes the focus (milliseconds), every render brings it into view again: the rows
 * measured on the way (taller or shorter than the guess) move it after the browser's own scroll to it, and
 * WebKit draws them a frame later. Past it, the user's own scrolling is left alone.
 */
const REVEAL_MS = 1000;

/** Where a virtual row is: its place in the list (0-based) and its top within the list, in CSS pixels. */
export interface RowPlace {
  index: number;
  top: number;
  /** Registers the row's element to be measured (its height may differ from the guess: an error, details). */
  measure: (element: HTMLLIElement | null) => void;
}

export interface VirtualRowsProps {
  /** The list's rows, by id (the list's order). */
  ids: readonly string[];
  /** Attributes of the list's `<ul>` (its part, look and label). */
  listProps: HTMLAttributes<HTMLUListElement>;
  /** One row, placed. */
  row: (id: string, place: RowPlace) => ReactNode;
}

/**
 * The nearest ancestor of `element` that scrolls vertically (its content, the list's full height included,
 * taller than its box), or `window` when the page itself scrolls. A box whose `overflow` is set but which
 * grows with its content (`overflow-x: hidden` makes `overflow-y` compute to `auto`) is not a scroller.
 */
function scrollParent(element: HTMLElement): Element | Window {
  for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
    if (/(auto|scroll|overlay)/.test(getComputedStyle(parent).overflowY) && parent.scrollHeight > parent.clientHeight) return parent;
  }
  return window;
}

/** Whether the list scrolls with the page (`scrollParent` found no box): the page's own `window`, whatever realm made it. */
const isWindow = (scroller: Element | Window): scroller is Window => scroller === window;

// Typed for an element: `useVirtualizer` takes an element's options, the window's are those of `useWindowVirtualizer`
// (one hook for both, as the scroller is known only once mounted).
type ScrollOptions = Pick<VirtualizerOptions<Element, HTMLLIElement>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

/** How the virtualizer follows `scroller`: a scrolling box, or the window. */
function scrollOptions(scroller: Element | Window): ScrollOptions {
  return (
    isWindow(scroller)
      ? { observeElementRect: observeWindowRect, observeElementOffset: observeWindowOffset, scrollToFn: windowScroll }
      : { observeElementRect, observeElementOffset, scrollToFn: elementScroll }
  ) as unknown as ScrollOptions;
}

/** The list's top within its scroller's content (CSS pixels): the scroll offset at which the list starts. */
function listOffset(list: HTMLElement, scroller: Element | Window): number {
  const top = list.getBoundingClientRect().top;
  return isWindow(scroller) ? top + window.scrollY : top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/**
 * The rows in view of the list's scroller (the page, or the nearest scrolling box), with a few around,
 * virtualized by TanStack Virtual: a list of thousands of files mounts a screenful of rows. Each row is
 * measured once drawn; the focused row and its two neighbours stay mounted while they scroll out of view,
 * so the keyboard never loses its place, and the rows keep the DOM order of the list, so Tab and Shift+Tab
 * reach every row in turn (a row scrolls into view when focused).
 */
export default function VirtualRows({ ids, listProps, row }: VirtualRowsProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scroller, setScroller] = useState<Element | Window | null>(null);
  const [offset, setOffset] = useState(0);
  const [gap, setGap] = useState(0);
  /** The id of the file whose row holds the focus (by id: files added or removed before it move its index). */
  const [focused, setFocused] = useState<string | undefined>(undefined);
  // Where the list is and how far apart its rows are, read when the list changes (a read of layout: not on
  // every render, which a row's measured height causes).
  useLayoutEffect(() => {
    const listElement = listRef.current!;
    const found = scroller ?? scrollParent(listElement);
    if (found !== scroller) setScroller(found);
    const top = listOffset(listElement, found);
    if (Math.abs(top - offset) >= 1) setOffset(top);
    const rowGap = Number.parseFloat(getComputedStyle(listElement).rowGap) || 0;
    if (rowGap !== gap) setGap(rowGap);
  }, [ids]);
  const getItemKey = useCallback((index: number) => ids[index]!, [ids]);
  const virtualizer = useVirtualizer<Element, HTMLLIElement>({
    count: ids.length,
    getScrollElement: () => scroller as Element | null,
    ...scrollOptions(scroller ?? window),
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey,
    overscan: OVERSCAN,
    scrollMargin: offset,
    gap,
    rangeExtractor: (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      const kept = focused === undefined ? -1 : ids.indexOf(focused);
      if (kept === -1) return indexes;
      // The focused row and the rows on each side of it: Tab and Shift+Tab always find the next row in the DOM,
      // even before the scroll that brings it into view has been drawn.
      const around = [kept - 1, kept, kept + 1].filter((index) => index >= 0 && index < range.count);
      return [...new Set([...indexes, ...around])].sort((a, b) => a - b);
    },
  });
  /** Until when (`performance.now()`) the focused row is brought into view after each render. */
  const revealUntil = useRef(0);
  // The row holding the focus stays mounted, with its neighbours; when the focus leaves the list, they may go.
  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    const rowElement = (event.target as Element).closest('[data-index]');
    setFocused(rowElement ? ids[Number(rowElement.getAttribute('data-index'))] : undefined);
    rowElement?.scrollIntoView({ block: 'nearest' });
    revealUntil.current = performance.now() + REVEAL_MS;
  };
  // After a render (a row measured above the focused one moves it), the focused row is brought back into view.
  useLayoutEffect(() => {
    if (focused === undefined || performance.now() > revealUntil.current) return;
    listRef.current?.querySelector(`[data-index="${ids.indexOf(focused)}"]`)?.scrollIntoView({ block: 'nearest' });
  });
  const onBlur = (event: FocusEvent<HTMLUListElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(undefined);
  };
  const measure = virtualizer.measureElement;
  return (
    <ul {...listProps} ref={listRef} onFocus={onFocus} onBlur={onBlur} style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => row(ids[item.index]!, { index: item.index, top: item.start - offset, measure }))}
    </ul>
  );
}
