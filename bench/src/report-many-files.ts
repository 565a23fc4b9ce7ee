/** The many-files section of RESULTS.md (`many-files/run.ts`). */
import type { FrameCostResultFile } from './many-files/frame-cost';
import type { ManyFilesCell, ManyFilesResultFile } from './many-files/run';
import { fmt } from './lib/stats';

/** The issue's targets for a list of 5,000 files: at least this ratio to the floor, and no task over 50 ms. */
const RATIO_TARGET = 0.9;
const TARGET_COUNT = 5000;

/** `a`, `a and b`, `a, b and c` of the distinct values. */
const list = (values: string[]) => {
  const distinct = [...new Set(values)];
  return distinct.length < 2 ? (distinct[0] ?? '') : `${distinct.slice(0, -1).join(', ')} and ${distinct.at(-1)}`;
};

const times = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(2)}x`);

/** A mode's label in `result`, by its id. */
const modeLabel = (result: ManyFilesResultFile) => (id: string) => result.modes.find((mode) => mode.id === id)?.label ?? id;

export function manyFilesSection(result: ManyFilesResultFile, add: (...text: string[]) => void, headline: string[]): void {
  const label = modeLabel(result);
  const groups = [...new Set(result.cells.map((cell) => `${cell.count}:${cell.concurrency}`))].map((key) => {
    const [count, concurrency] = key.split(':').map(Number) as [number, number];
    return { count, concurrency, cells: result.cells.filter((cell) => cell.count === count && cell.concurrency === concurrency) };
  });
  const judged = (cell: ManyFilesCell | undefined) =>
    cell?.median
      ? `${times(cell.median.ratioToFloor)} the floor, ${fmt(cell.median.longTaskCount)} long tasks a run (longest ${fmt(cell.median.longTaskMaxMs)} ms)` +
        (cell.median.cpuLongTaskCount === undefined
          ? ''
          : `, by CPU time ${fmt(cell.median.cpuLongTaskCount)} (longest ${fmt(cell.median.cpuLongTaskMaxMs!)} ms)`)
      : 'n/a';
  const met = (cell: ManyFilesCell | undefined) =>
    cell?.median && (cell.median.ratioToFloor ?? 0) >= RATIO_TARGET && cell.median.longTaskMaxMs <= 50 ? 'met' : '**not met**';
  for (const { count, concurrency, cells } of groups.filter((group) => group.count === TARGET_COUNT)) {
    const list = cells.find((cell) => cell.mode === 'hook-list');
    const listSkippingOffscreen = cells.find((cell) => cell.mode === 'hook-list-cv');
    const containedList = cells.find((cell) => cell.mode === 'hook-list-contained');
    const floorList = cells.find((cell) => cell.mode === 'floor-list');
    const before = cells.find((cell) => cell.mode === 'hook-list-before');
    const beforeSkippingOffscreen = cells.find((cell) => cell.mode === 'hook-list-cv-before');
    const components = cells.find((cell) => cell.mode === 'components');
    if (!list && !components) continue;
    headline.push(
      `- **Many files** (${fmt(count)} files of ${fmt(result.fileBytes / 1000)} KB, ${concurrency} at once, chromium, s3rver; ` +
        `target: at least ${RATIO_TARGET}x the faster floor and no task over 50 ms): ` +
        [
          list && `a plain \`useS3Upload\` list of memoized rows at ${judged(list)}: ${met(list)}`,
          listSkippingOffscreen &&
            `the same rows with CSS \`content-visibility: auto\` at ${judged(listSkippingOffscreen)}: ${met(listSkippingOffscreen)}`,
          // The two CSS rules docs/guide/many-files.md gives a plain list of thousands of rows.
          containedList && `the same rows contained (as docs/guide/many-files.md advises) at ${judged(containedList)}: ${met(containedList)}`,
          // Not a target: the same rows drawn by hand, the floor of what such a list's frames cost the page.
          floorList && `the same rows drawn with DOM calls, no framework (the floor of a list's frames) at ${judged(floorList)}`,
          before && `the plain list against the before build: ${judged(before)}`,
          beforeSkippingOffscreen && `the rows with \`content-visibility\` against the before build: ${judged(beforeSkippingOffscreen)}`,
          components && `the components' \`UploadList\` at ${judged(components)}: ${met(components)}`,
        ]
          .filter(Boolean)
          .join('; ') +
        '.',
    );
  }
  add(
    '## 3b. Many files: thousands of small files from one page',
    '',
    `Chromium uploads ${fmt(result.fileBytes / 1000)} KB files, ${list(groups.map((group) => fmt(group.count)))} of them, ` +
      `${list(groups.map((group) => String(group.concurrency)))} at once, with each client in turn`,
    '(`pnpm --filter @upbeam/bench bench:many-files`). The floor is a bare XHR loop doing the same preparation request and',
    'presigned PUT per file, with no rendering, run twice: preparing with `fetch`, and with XHR as Upbeam does. "ratio" is the',
    "median over the rounds of the client's files/s divided by the faster floor's in the same round (so a floor's own ratio",
    "is at most 1); long tasks are the page's tasks over 50 ms (wall time: a starved CPU lengthens them); in runs traced",
    "with `MANY_FILES_TRACE=<mode ids>`, the cell also gives the tasks whose CPU (thread) time passed 50 ms, which a",
    'starved CPU does not lengthen.',
    '"floor of a list" is the floor loop beside the plain list\'s rows drawn with DOM calls (no framework, every change',
    "written as it comes): what such a list costs the page when it draws every frame (3d has one frame's cost).",
    'Rows marked "(before)", where a run has them, run the same page against another build of `@upbeam/upload-client` or',
    '`@upbeam/upload-react` (`MANY_FILES_BEFORE_CLIENT`, `MANY_FILES_BEFORE_REACT`), in the same rounds.',
    `Settings: ${result.settings}.`,
    '',
    '"`files` whole": seconds from the files handed to the hook to the first render whose `files` held them all (a batch',
    'joins `files` some rows a frame, `packages/upload-react/src/use-growing-list.ts`; median; – where not measured: the clients without the hook, and runs made before this column).',
    '',
    '| files | at once | client | files/s (median) | ratio to floor | long tasks a run (median) | longest task | `files` whole | runs cut at the limit |',
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const { count, concurrency, cells } of groups) {
    for (const cell of cells) {
      const m = cell.median;
      add(
        `| ${fmt(count)} | ${concurrency} | ${label(cell.mode)} | ${m ? fmt(m.filesPerSecond, 1) : 'failed'} | ` +
          `${times(m?.ratioToFloor)} | ${m ? fmt(m.longTaskCount) : 'n/a'}${m?.cpuLongTaskCount === undefined ? '' : ` (by CPU time ${fmt(m.cpuLongTaskCount)})`} | ` +
          `${m ? `${fmt(m.longTaskMaxMs)} ms` : 'n/a'}${m?.cpuLongTaskMaxMs === undefined ? '' : ` (by CPU time ${fmt(m.cpuLongTaskMaxMs)} ms)`} | ${m?.filesWholeSeconds === undefined ? '–' : `${fmt(m.filesWholeSeconds, 1)} s`} | ` +
          `${m ? `${m.cut} of ${cell.samples.length}` : 'n/a'} |`,
      );
    }
  }
  add('');
}

/** The section of the opt-in growth-only run (`bench:growth`): a batch joining each React list, no upload. */
export function manyFilesGrowthSection(result: ManyFilesResultFile, add: (...text: string[]) => void): void {
  const label = modeLabel(result);
  add(
    '## 3c. A batch joining a list, with no upload',
    '',
    `A batch of ${list(result.cells.map((cell) => fmt(cell.count)))} files handed to the hook at once, each list of 3b drawing it`,
    '(`pnpm --filter @upbeam/bench bench:growth`, opt-in). Nothing is uploaded: the hook\'s uploads go to a stand-in that',
    'never settles, so these runs time the growth rule (`packages/upload-react/src/use-growing-list.ts`) without the',
    "network's noise. Medians over the rounds; the longest task is the longest of all runs. Rows marked \"(before)\" run",
    'the same lists against another build of `@upbeam/upload-react` (`MANY_FILES_BEFORE_REACT`) in the same rounds.',
    `Settings: ${result.settings}.`,
    '',
    '| files | client | `files` whole | long tasks a run (median) | longest task | runs |',
    '| ---: | --- | ---: | ---: | ---: | ---: |',
  );
  for (const cell of result.cells) {
    const m = cell.median;
    add(
      `| ${fmt(cell.count)} | ${label(cell.mode)} | ${m?.filesWholeSeconds === undefined ? 'n/a' : `${fmt(m.filesWholeSeconds, 2)} s`} | ` +
        `${m ? fmt(m.longTaskCount) : 'n/a'} | ${m ? `${fmt(m.longTaskMaxMs)} ms` : 'n/a'} | ${cell.samples.length} |`,
    );
  }
  add('');
}

const FRAME_COST_MARKUPS: Record<FrameCostResultFile['cells'][number]['markup'], string> = {
  plain: 'plain rows',
  'content-visibility': 'rows with `content-visibility: auto`',
  contained: 'contained rows',
};

/** The section of the opt-in frame-cost run (`bench:frame-cost`): one frame of a long list, drawn with DOM calls. */
export function frameCostSection(result: FrameCostResultFile, add: (...text: string[]) => void): void {
  add(
    '## 3d. One frame of a long list, drawn with DOM calls',
    '',
    "What the browser's frame costs when 3b's plain list (a summary line, then a row a file) changes, with no framework",
    'and no upload (`pnpm --filter @upbeam/bench bench:frame-cost`, opt-in; `bench/src/many-files/frame-cost-page.ts`).',
    'The rows are plain, have CSS `content-visibility: auto`, or are contained (each row `contain: strict` at a fixed',
    'height, the list `contain: layout style`). The list is built at once; before each timed frame one thing changes:',
    'nothing, the summary line, one or six progress bars or status words (rows spread over the list, most out of view),',
    'or a status word in view. A frame is timed from its start to a task queued in its callbacks (its style, layout',
    'and paint). This is the floor under any renderer of these rows: a React render adds to a frame\'s style and',
    "layout, never takes from it. Over the rounds: the median of each run's median and 90th percentile, the longest",
    'frame of all, frames over 50 ms a run (median).',
    `Settings: ${result.settings}.`,
    '',
    '| rows | list | change before each frame | frame (median) | 90th percentile | longest | frames over 50 ms a run |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: |',
  );
  for (const cell of result.cells) {
    const m = cell.median;
    add(
      `| ${fmt(cell.rows)} | ${FRAME_COST_MARKUPS[cell.markup]} | ${cell.change} | ` +
        `${fmt(m.medianMs, 1)} ms | ${fmt(m.p90Ms, 1)} ms | ${fmt(m.maxMs, 1)} ms | ${fmt(m.over50)} of ${result.frames} |`,
    );
  }
  add('');
}
