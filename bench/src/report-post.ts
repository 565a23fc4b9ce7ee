/**
 * Issue 45's benchmark (`bench:post`, results/post.json): a presigned POST single upload against the bare XHR PUT
 * floor of the same rounds, as client CPU seconds per GiB (every chromium process, summed per upload) and MB/s, with
 * the median of the rounds' paired ratios and its 90 % interval. `tsx src/report-post.ts` prints the section.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeInterval, medianInterval, type MedianInterval } from './lib/paired';
import { RESULTS_DIR } from './lib/paths';
import { fmt, median } from './lib/stats';
import type { PostCell, PostResult, PostSample } from './post/run';
import type { Add } from './report-upload';

/** The intervals' confidence, as the CPU table's (`report-upload-cpu.ts`). */
const CONFIDENCE = 0.9;
/** The floor every mode is paired with. */
const FLOOR = 'floor';

const cpuPerGiB = (sizeMiB: number) => (sample: PostSample | undefined) =>
  !sample || sample.error || sample.clientCpuSeconds === undefined ? undefined : sample.clientCpuSeconds / (sizeMiB / 1024);
const speed = (sample: PostSample | undefined) => (!sample || sample.error ? undefined : sample.mbPerSecond);

/** The median of the rounds' `ours / floor`, where both ran; its 90 % interval. */
function pairedRatio(ours: (number | undefined)[], floor: (number | undefined)[]): MedianInterval | undefined {
  const ratios: number[] = [];
  for (let round = 0; round < Math.min(ours.length, floor.length); round++) {
    const a = ours[round];
    const b = floor[round];
    if (a !== undefined && b !== undefined && b > 0) ratios.push(a / b);
  }
  return medianInterval(ratios, CONFIDENCE);
}

const defined = (values: (number | undefined)[]) => values.filter((value): value is number => value !== undefined);

/** Writes the section: one table per storage. */
export function postSection(result: PostResult, add: Add): void {
  const { machine } = result;
  add(
    `## 3h. Presigned POST (issue 45): client CPU and MB/s against the bare XHR PUT floor (${machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${machine.commit})`,
    '',
    `\`${result.command}\`. ${result.settings}. Chromium ${machine.versions.chromium ?? ''}; 1-minute load ${machine.load ?? 'n/a'} at the end. ` +
      'Client CPU: every chromium process, summed per upload (/proc), per GiB. Each ratio is the median of the rounds\' paired ratios ' +
      '(the mode and the floor in the same round) with a 90 % order-statistics interval (the full range where the rounds are too few for 90 %). ' +
      'Modes: ' +
      result.modes.map((mode) => `\`${mode.id}\` ${mode.label}`).join('; ') +
      '.',
    '',
  );
  for (const [target, description] of Object.entries(result.targets)) {
    add(`### ${target}: ${description}`, '', '| size | mode | rounds | MB/s | vs floor | client CPU s/GiB | vs floor (90 % interval) |', '| --- | --- | ---: | ---: | ---: | ---: | ---: |');
    const cells = result.cells.filter((cell) => cell.target === target);
    for (const sizeMiB of [...new Set(cells.map((cell) => cell.sizeMiB))]) {
      const floor = cells.find((cell) => cell.sizeMiB === sizeMiB && cell.mode === FLOOR);
      for (const cell of cells.filter((entry) => entry.sizeMiB === sizeMiB)) addRow(cell, floor, add);
    }
    add('');
  }
}

function addRow(cell: PostCell, floor: PostCell | undefined, add: Add): void {
  const cpu = cell.samples.map(cpuPerGiB(cell.sizeMiB));
  const mbps = cell.samples.map(speed);
  const ok = defined(cpu).length;
  const failed = cell.samples.length - ok;
  const isFloor = cell.mode === FLOOR;
  const cpuRatio = floor && !isFloor ? pairedRatio(cpu, floor.samples.map(cpuPerGiB(cell.sizeMiB))) : undefined;
  const speedRatio = floor && !isFloor ? pairedRatio(mbps, floor.samples.map(speed)) : undefined;
  const size = cell.sizeMiB >= 1024 ? `${cell.sizeMiB / 1024} GiB` : `${cell.sizeMiB} MiB`;
  const ratio = (figure: MedianInterval | undefined, interval: boolean) =>
    isFloor ? '1' : figure ? (interval ? `${describeInterval(figure)}x` : `${figure.median.toFixed(2)}x`) : 'n/a';
  add(
    `| ${size} | \`${cell.mode}\` | ${ok}${failed ? ` (${failed} failed)` : ''} | ${fmt(median(defined(mbps)))} | ${ratio(speedRatio, false)} | ${fmt(median(defined(cpu)), 2)} | ${ratio(cpuRatio, true)} |`,
  );
}

/** results/post.json, when `bench:post` has written it. */
export async function loadPostResult(): Promise<PostResult | undefined> {
  try {
    return JSON.parse(await readFile(join(RESULTS_DIR, 'post.json'), 'utf8')) as PostResult;
  } catch {
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await loadPostResult();
  if (!result) throw new Error('no results/post.json: run bench:post first');
  const lines: string[] = [];
  postSection(result, (...text) => lines.push(...text));
  console.log(lines.join('\n'));
}
