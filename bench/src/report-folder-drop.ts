/** The section of the opt-in folder-drop runs (`bench:many-files-folder`, issue 47): 50,000 files from one drop. */
import type { FolderDropResultFile, FolderDropSample } from './many-files/folder-drop';
import { fmt, median } from './lib/stats';

const LABELS: Record<string, string> = {
  floor: 'floor: bare XHR loop (prepare with `fetch`, one PUT each) fed by a plain walk of the entries, nothing drawn',
  uploader: '`<Uploader>` of the components (drop zone, summary, Cancel all, Clear list, virtualized list)',
  'hook-virtual': '`useS3Upload` + `useDropZone`, ids rows virtualized by TanStack Virtual (the many-files guide)',
};

const KB = 1024;
const MB = 1e6;

const medianOf = (samples: FolderDropSample[], pick: (sample: FolderDropSample) => number | undefined): number | undefined => {
  const values = samples.flatMap((sample) => {
    const value = pick(sample);
    return value === undefined ? [] : [value];
  });
  return values.length > 0 ? median(values) : undefined;
};

const msText = (value: number | undefined) => (value === undefined ? '–' : `${fmt(value, value < 10 ? 1 : 0)} ms`);

export function folderDropSection(result: FolderDropResultFile, add: (...text: string[]) => void): void {
  const good = result.samples.filter((sample) => sample.error === undefined);
  const floorByRound = new Map(good.filter((sample) => sample.mode === 'floor').map((sample) => [sample.round, sample]));
  const modes = [...new Set(result.samples.map((sample) => sample.mode))];
  add(
    '## 3j. A folder of 50,000 files from one drop (issue 47)',
    '',
    `A folder of ${fmt(result.files)} files of ${fmt(result.fileBytes / KB)} KiB dropped as one folder onto each client, ${result.concurrency} at once`,
    '(`pnpm --filter @upbeam/bench bench:many-files-folder`, opt-in; `FOLDER_FILES`, `FOLDER_WINDOW_S`, `FOLDER_ROUNDS`, `FOLDER_MODES`).',
    'The drop is real: DevTools\' `Input.dispatchDragEvent` with the folder on disk, and chromium gives the page the',
    '`FileSystemDirectoryEntry` tree of a drag from the desktop. A whole folder takes ~9 minutes a run at the floor\'s',
    `pace here, so **each run is cut ${fmt(result.windowSeconds)} s after the drop**: files/s counts the files stored by then (the folder`,
    'walk and the first requests included), and the rest is cancelled with Cancel all. "ratio" is the median over the rounds',
    'of files/s divided by the floor\'s of the same round. "first row": the first frame with a row in the DOM after the drop;',
    '"all held": the drop to the last file of the folder held by the client (tracked, or found by the floor\'s walk); long',
    'tasks: the page\'s tasks over 50 ms from the drop to the cut (wall time). Cancel all and Clear list: the click\'s task,',
    'and to the next frame after it. Heap: V8\'s used heap after two forced collections, with every file held (after',
    'Cancel all) and after Clear list; "per file beyond the floor": (client\'s heap held − floor\'s heap held, same round) /',
    `files; the floor holds only its \`File\` objects and its array. Medians over the rounds. Settings: ${result.settings}.`,
    '',
    '| client | files/s (rounds) | ratio to floor | first row | all held | long tasks a run (median), longest | Cancel all: task, frame | Clear list: task, frame | heap: before, held, after Clear | per file beyond the floor |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const mode of modes) {
    const samples = good.filter((sample) => sample.mode === mode);
    if (samples.length === 0) {
      add(`| ${LABELS[mode] ?? mode} | failed | | | | | | | | |`);
      continue;
    }
    const ratios = samples.flatMap((sample) => {
      const floor = floorByRound.get(sample.round);
      return floor?.filesPerSecond ? [sample.filesPerSecond! / floor.filesPerSecond] : [];
    });
    const beyond = samples.flatMap((sample) => {
      const floor = floorByRound.get(sample.round);
      return mode !== 'floor' && floor?.heapHeldBytes ? [(sample.heapHeldBytes! - floor.heapHeldBytes) / result.files] : [];
    });
    const longCount = median(samples.map((sample) => sample.longTasks!.count));
    const longest = Math.max(...samples.map((sample) => sample.longTasks!.maxMs));
    const heap = (pick: (sample: FolderDropSample) => number | undefined) => fmt(medianOf(samples, pick)! / MB, 1);
    add(
      `| ${LABELS[mode] ?? mode} | ${fmt(median(samples.map((sample) => sample.filesPerSecond!)), 1)} (${samples.map((sample) => fmt(sample.filesPerSecond!, 1)).join(', ')}) ` +
        `| ${ratios.length > 0 ? `${fmt(median(ratios), 2)}x` : '–'} | ${msText(medianOf(samples, (sample) => sample.firstRowMs))} ` +
        `| ${msText(medianOf(samples, (sample) => sample.allFoundMs))} | ${fmt(longCount)}, ${fmt(longest)} ms ` +
        `| ${msText(medianOf(samples, (sample) => sample.cancelTaskMs))}, ${msText(medianOf(samples, (sample) => sample.cancelFrameMs))} ` +
        `| ${msText(medianOf(samples, (sample) => sample.clearTaskMs))}, ${msText(medianOf(samples, (sample) => sample.clearFrameMs))} ` +
        `| ${heap((sample) => sample.heapBeforeBytes)}, ${heap((sample) => sample.heapHeldBytes)}, ${heap((sample) => sample.heapClearedBytes)} MB ` +
        `| ${beyond.length > 0 ? `${fmt(median(beyond))} B` : '–'} |`,
    );
  }
  const failed = result.samples.filter((sample) => sample.error);
  if (failed.length > 0) add('', `Failed runs: ${failed.map((sample) => `${sample.mode} round ${sample.round} (${sample.error})`).join('; ')}.`);
  add('');
}
