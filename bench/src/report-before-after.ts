/**
 * The before/after section of RESULTS.md: the upload and many-files runs against another checkout's build
 * (`BENCH_BEFORE_ROOT`, `lib/before-build.ts`; results/upload-before-after.json, many-files-before-after.json),
 * client CPU per upload paired round by round.
 */
import type { ManyFilesResultFile, ManyFilesSample } from './many-files/run';
import { describeInterval, pairedFigures, type MedianInterval } from './lib/paired';
import type { UploadResult, UploadSample } from './upload/run';

const when = (result: { machine: { date: string } }) => result.machine.date.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');

/** `0.98 (0.93-1.04)`, and `, straddles 1` where the interval does. */
function ratioCell(ratio: MedianInterval | undefined): string {
  if (!ratio) return 'n/a';
  return `${describeInterval(ratio)}${ratio.low <= 1 && ratio.high >= 1 ? ', straddles 1' : ''}`;
}

/** `0.95` or `0.97` coverage of the intervals of a table (the lowest), e.g. `96.9 %`. */
const coverageOf = (figures: (MedianInterval | undefined)[]) => {
  const coverages = figures.flatMap((figure) => (figure ? [figure.coverage] : []));
  return coverages.length > 0 ? `${(Math.min(...coverages) * 100).toFixed(1)} %` : 'n/a';
};

const intro = (add: (...text: string[]) => void) =>
  add(
    'Every Upbeam mode runs twice in the same rounds, on a page built from this checkout ("after") and on the same page',
    'built from another checkout\'s packages (`BENCH_BEFORE_ROOT=<checkout, installed and built>`: its `@upbeam/upload-protocol`,',
    '`-client` and `-react`; the page\'s own code, the floors and the app\'s server stay this checkout\'s), the modes in a new',
    'order every round. Client CPU is the CPU time of all of chromium\'s processes (/proc) during the upload. Each figure is',
    'the median of the rounds with its distribution-free interval (order statistics); "after / before" is the median of the',
    'rounds\' paired ratios, with its interval. The floors have no before build: they are the reference for what the',
    'browser alone spends. On this machine a ratio moves by up to 0.08 between runs of the same code.',
    '',
  );

export function beforeAfterSection(
  upload: UploadResult | undefined,
  manyFiles: ManyFilesResultFile | undefined,
  add: (...text: string[]) => void,
): void {
  if (!upload?.before && !manyFiles?.before) return;
  const label = upload?.before?.label ?? manyFiles?.before?.label;
  add(`## 3e. Before and after${label ? ` ${label}` : ''}: client CPU per upload, paired`, '');
  intro(add);
  if (upload?.before) uploadTable(upload, add);
  if (manyFiles?.before) manyFilesTable(manyFiles, add);
}

function uploadTable(result: UploadResult, add: (...text: string[]) => void): void {
  const before = result.before!;
  const cpu = (samples: UploadSample[]) => samples.map((sample) => (sample.error ? undefined : sample.clientCpuSeconds));
  const speed = (samples: UploadSample[]) => samples.map((sample) => (sample.error ? undefined : sample.mbPerSecond));
  const rows: string[] = [];
  const intervals: (MedianInterval | undefined)[] = [];
  for (const cell of result.cells) {
    if (cell.mode.endsWith('-before')) continue;
    const other = result.cells.find((entry) => entry.target === cell.target && entry.sizeMiB === cell.sizeMiB && entry.mode === `${cell.mode}-before`);
    const label = result.modes.find((mode) => mode.id === cell.mode)?.label ?? cell.mode;
    if (!other) {
      const alone = pairedFigures(cpu(cell.samples), cpu(cell.samples));
      if (alone) intervals.push(alone.after);
      rows.push(`| ${cell.target} | ${cell.sizeMiB} | ${label} (reference) | ${alone?.after.n ?? 0} | ${alone ? describeInterval(alone.after) : 'n/a'} | – | – | – |`);
      continue;
    }
    const figures = pairedFigures(cpu(cell.samples), cpu(other.samples));
    const throughput = pairedFigures(speed(cell.samples), speed(other.samples));
    intervals.push(figures?.after, figures?.before, figures?.ratio);
    rows.push(
      `| ${cell.target} | ${cell.sizeMiB} | ${label} | ${figures?.ratio.n ?? 0} | ${figures ? describeInterval(figures.after) : 'n/a'} | ` +
        `${figures ? describeInterval(figures.before) : 'n/a'} | **${ratioCell(figures?.ratio)}** | ${throughput ? describeInterval(throughput.ratio) : 'n/a'} |`,
    );
  }
  add(
    `### Upload: client CPU seconds per upload (${when(result)}, after ${result.machine.commit}, before ${before.commit})`,
    '',
    `\`${before.command}\`, ${Math.round(result.seconds)} s. ` +
      `Settings: ${result.settings}. Intervals cover at least ${coverageOf(intervals)}.`,
    '',
    '| target | MiB | mode | paired rounds | client CPU s, after | before | after / before | MB/s after / before |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  );
}

function manyFilesTable(result: ManyFilesResultFile, add: (...text: string[]) => void): void {
  const before = result.before!;
  const perFile = (samples: ManyFilesSample[]) =>
    samples.map((sample) => (sample.error || sample.clientCpuSeconds === undefined || !sample.done ? undefined : (sample.clientCpuSeconds * 1000) / sample.done));
  const speed = (samples: ManyFilesSample[]) => samples.map((sample) => (sample.error ? undefined : sample.filesPerSecond));
  const rows: string[] = [];
  const intervals: (MedianInterval | undefined)[] = [];
  for (const cell of result.cells) {
    const mode = result.modes.find((entry) => entry.id === cell.mode);
    if (mode?.build === 'before') continue;
    const other = result.cells.find(
      (entry) =>
        entry.count === cell.count &&
        entry.concurrency === cell.concurrency &&
        result.modes.find((candidate) => candidate.id === entry.mode && candidate.build === 'before' && candidate.client === mode?.client),
    );
    const label = mode?.label ?? cell.mode;
    if (!other) {
      const alone = pairedFigures(perFile(cell.samples), perFile(cell.samples));
      if (alone) intervals.push(alone.after);
      rows.push(`| ${cell.count} | ${cell.concurrency} | ${label} (reference) | ${alone?.after.n ?? 0} | ${alone ? describeInterval(alone.after, 3) : 'n/a'} | – | – | – |`);
      continue;
    }
    const figures = pairedFigures(perFile(cell.samples), perFile(other.samples));
    const throughput = pairedFigures(speed(cell.samples), speed(other.samples));
    intervals.push(figures?.after, figures?.before, figures?.ratio);
    rows.push(
      `| ${cell.count} | ${cell.concurrency} | ${label} | ${figures?.ratio.n ?? 0} | ${figures ? describeInterval(figures.after, 3) : 'n/a'} | ` +
        `${figures ? describeInterval(figures.before, 3) : 'n/a'} | **${ratioCell(figures?.ratio)}** | ${throughput ? describeInterval(throughput.ratio) : 'n/a'} |`,
    );
  }
  add(
    `### Many files: client CPU milliseconds per file (${when(result)}, after ${result.machine.commit}, before ${before.commit})`,
    '',
    `\`${before.command}\`, ${Math.round(result.seconds)} s. ` +
      `Settings: ${result.settings}. Intervals cover at least ${coverageOf(intervals)}.`,
    '',
    '| files | at once | client | paired rounds | client CPU ms per file, after | before | after / before | files/s after / before |',
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  );
}
