/**
 * The page of the frame-cost benchmark (`frame-cost.ts`): what one frame of a long list costs the browser when
 * some of it changes, with no framework and no upload. The list is the many-files page's plain list (a summary
 * line, then one `<li>` a file: name, `<progress>`, status word), styled as `FrameCostMarkup` says. Every change
 * is a DOM write; the frame after it is timed from its start (its callbacks, then style, layout and paint) to a
 * task queued from its first callback.
 */
import { CONTAINED_LIST, CONTAINED_ROW, createDomRow, OFFSCREEN_SKIPPED } from './list-rows';

/** What the benchmark asks: rows in the list, how they are styled, and frames timed per kind of change. */
export interface FrameCostRun {
  rows: number;
  markup: FrameCostMarkup;
  frames: number;
}

/**
 * How the rows are styled: plain; with CSS `content-visibility: auto` (docs/guide/many-files.md); or contained
 * (each row `contain: strict` at a fixed height, the list `contain: layout style`: a row's change lays out only
 * that row, a change outside the list does not lay out the list).
 */
export type FrameCostMarkup = 'plain' | 'content-visibility' | 'contained';

/** What changes before a timed frame (rows out of view unless said, spread over the list). */
export type FrameChange =
  | 'nothing'
  | 'the summary line'
  | 'one progress bar'
  | 'six progress bars'
  | 'one status word'
  | 'six status words'
  | 'a status word in view';

/** Milliseconds of the timed frames of one kind of change. */
export interface FrameTimes {
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  /** Frames over 50 ms (the Long Tasks API's threshold). */
  over50: number;
}

declare global {
  interface Window {
    benchFrameCost(run: FrameCostRun): Promise<Record<FrameChange, FrameTimes>>;
  }
}

/** The next frame's time: from its start to a task queued in its callbacks (after its style, layout and paint). */
const frameMs = () =>
  new Promise<number>((resolve) =>
    requestAnimationFrame(() => {
      const startedAt = performance.now();
      setTimeout(() => resolve(performance.now() - startedAt), 0);
    }),
  );

function times(samples: number[]): FrameTimes {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return { medianMs: round(at(0.5)), p90Ms: round(at(0.9)), maxMs: round(sorted.at(-1)!), over50: samples.filter((ms) => ms > 50).length };
}

window.benchFrameCost = async ({ rows: count, markup, frames }) => {
  const summary = Object.assign(document.createElement('p'), { textContent: `0 of ${count} stored` });
  const list = document.createElement('ul');
  const rows = Array.from({ length: count }, (_, index) => {
    const drawn = createDomRow(`file-${index}.bin`, 0, 'queued');
    if (markup === 'content-visibility') Object.assign(drawn.row.style, OFFSCREEN_SKIPPED);
    if (markup === 'contained') Object.assign(drawn.row.style, CONTAINED_ROW);
    return drawn;
  });
  list.append(...rows.map(({ row }) => row));
  if (markup === 'contained') Object.assign(list.style, CONTAINED_LIST);
  document.getElementById('root')!.replaceChildren(summary, list);
  for (let frame = 0; frame < 10; frame++) await frameMs();
  // The rows changed are spread over the list (most out of view), as files in flight are over a long upload.
  const spread = (frame: number, nth: number) => rows[(frame * 6 + nth) * 97 % count]!;
  const STATUS_WORDS = ['uploading', 'done'];
  const changes: Record<FrameChange, (frame: number) => void> = {
    nothing: () => {},
    'the summary line': (frame) => (summary.textContent = `${frame} of ${count} stored`),
    'one progress bar': (frame) => (spread(frame, 0).progress.value = (frame * 7) % 100),
    'six progress bars': (frame) => {
      for (let nth = 0; nth < 6; nth++) spread(frame, nth).progress.value = (frame * 7 + nth) % 100;
    },
    'one status word': (frame) => (spread(frame, 0).status.data = STATUS_WORDS[frame % 2]!),
    'six status words': (frame) => {
      for (let nth = 0; nth < 6; nth++) spread(frame, nth).status.data = STATUS_WORDS[(frame + nth) % 2]!;
    },
    'a status word in view': (frame) => (rows[2]!.status.data = STATUS_WORDS[frame % 2]!),
  };
  const result = {} as Record<FrameChange, FrameTimes>;
  for (const [change, apply] of Object.entries(changes) as [FrameChange, (frame: number) => void][]) {
    const samples: number[] = [];
    for (let frame = 0; frame < frames; frame++) {
      apply(frame);
      samples.push(await frameMs());
    }
    result[change] = times(samples);
  }
  return result;
};
