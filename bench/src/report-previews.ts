/** The section of the opt-in photo runs (`bench:previews`): 5,000 photos of ~4 MB listed with their previews. */
import type { ManyFilesResultFile, ManyFilesSample } from './many-files/run';
import { fmt, median } from './lib/stats';

const MB = 1e6;

/** The median of a photo figure over a cell's good samples (`undefined` when none has it). */
function medianOf(samples: ManyFilesSample[], pick: (photo: NonNullable<ManyFilesSample['photo']>) => number | undefined): number | undefined {
  const values = samples.flatMap((sample) => {
    const value = sample.photo && pick(sample.photo);
    return value === undefined ? [] : [value];
  });
  return values.length > 0 ? median(values) : undefined;
}

const LABELS: Record<string, string> = {
  floor: 'floor: bare XHR loop (prepare with `fetch`, one PUT each), nothing drawn',
  components: '`UploadList` of the components, previews on (`drawPreview`: 40 CSS px, in the worker)',
  'components-before': '`UploadList` before issue 48 (the whole photo through an object URL in each row)',
};

export function manyFilesPreviewsSection(result: ManyFilesResultFile, add: (...text: string[]) => void): void {
  const photoBytes = result.fileBytes;
  add(
    '## 3f. Many photos with their previews (issue 48)',
    '',
    `${list(result.cells.map((cell) => fmt(cell.count)))} photos of ${fmt(photoBytes / MB, 1)} MB (6000 × 4000 JPEG) listed by the components while they`,
    'upload, previews on, and scrolled through (`pnpm --filter @upbeam/bench bench:previews`, opt-in; with',
    '`MANY_FILES_BEFORE_REACT=<a folder holding the upload-react dist of before issue 48>` the old thumbnail runs too).',
    'One JPEG blob is referenced by every File: the page holds it once while every preview still decodes it. The',
    'storage is a stand-in that reads each PUT and keeps nothing (20 GB fit neither /dev/shm nor a round\'s time on disk).',
    '"`files` whole": seconds until the list held every file (it grows some rows a frame); "first picture" and "rows in view" are milliseconds from the files handed to the list to the first row showing',
    'its picture, and to every row in view showing it (for the old thumbnail: its `<img>` loaded, not yet painted);',
    '"rows pictured" counts rows seen with their picture while the page scrolls. Memory: chromium\'s processes\'',
    'resident memory summed (start, peak, end of the run) and the page\'s JS heap (peak). Medians over the rounds.',
    `Settings: ${result.settings}. Story and the decode measurements: bench/notes/previews.md.`,
    '',
    '| photos | at once | client | MB/s | `files` whole | first picture | rows in view | rows pictured | chromium memory: start, peak, end | JS heap peak | long tasks a run | longest task | runs cut at the limit |',
    '| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const cell of result.cells) {
    const good = cell.samples.filter((sample) => !sample.error);
    const m = cell.median;
    const ms = (value: number | undefined) => (value === undefined ? '–' : `${fmt(value)} ms`);
    const mb = (value: number | undefined) => (value === undefined ? 'n/a' : `${fmt(value / MB)} MB`);
    add(
      `| ${fmt(cell.count)} | ${cell.concurrency} | ${LABELS[cell.mode] ?? cell.mode} | ${fmt(medianOf(good, (photo) => photo.megabytesPerSecond))} | ` +
        `${m?.filesWholeSeconds === undefined ? '–' : `${fmt(m.filesWholeSeconds, 1)} s`} | ` +
        `${ms(medianOf(good, (photo) => photo.firstPictureMs))} | ${ms(medianOf(good, (photo) => photo.firstRowsMs))} | ` +
        `${fmt(medianOf(good, (photo) => photo.picturedRows))} | ` +
        `${mb(medianOf(good, (photo) => photo.rssStartBytes))}, ${mb(medianOf(good, (photo) => photo.rssPeakBytes))}, ${mb(medianOf(good, (photo) => photo.rssEndBytes))} | ` +
        `${mb(medianOf(good, (photo) => photo.heapPeakBytes))} | ${m ? fmt(m.longTaskCount) : 'n/a'} | ${m ? `${fmt(m.longTaskMaxMs)} ms` : 'n/a'} | ` +
        `${m ? `${m.cut} of ${good.length}` : 'n/a'} |`,
    );
  }
  add('');
}

/** `a`, `a and b`, `a, b and c` of the distinct values. */
function list(values: string[]): string {
  const distinct = [...new Set(values)];
  return distinct.length < 2 ? (distinct[0] ?? '') : `${distinct.slice(0, -1).join(', ')} and ${distinct.at(-1)}`;
}
