/**
 * The page of the many-files benchmark: thousands of small files uploaded by one of several clients, each
 * as an app would use it. The benchmark calls `window.benchManyFiles(...)` on a fresh page; it resolves
 * once every file has ended (or the time is up), with the main thread's long tasks seen meanwhile.
 *
 * A client is one entry of `CLIENTS`: a function that uploads the files and resolves when they have all
 * ended. A React client mounts its component into the page (the list it renders is part of its cost).
 */
import { UploadTracker } from '@upbeam/upload-client';
import { useS3Upload, useTrackedFile, useTrackedIds, type TrackedFile, type UseS3Upload } from '@upbeam/upload-react';
import { UploadList } from '@upbeam/upload-react/components';
// Bundled by esbuild into page.css, which the components client links before it mounts.
import '@upbeam/upload-react/components.css';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { uploadWithProgress } from '../bundle/floor';
import { CONTAINED_LIST, CONTAINED_ROW, createDomRow, OFFSCREEN_SKIPPED, type DomRow } from './list-rows';
import { RUN_STARTED_MARK } from './run-started';
import { longFramesSince, longTasksSince, type LongFrame, type LongTasks } from '../upload/long-tasks';

/** The clients the page runs. */
export type ManyFilesClient =
  | 'floor'
  | 'floor-xhr-prepare'
  | 'floor-list'
  | 'tracker'
  | 'hook-list'
  | 'hook-list-cv'
  | 'hook-list-contained'
  | 'ids-list'
  | 'ids-list-virtual'
  | 'components';

/** What the benchmark asks the page to do. */
export interface ManyFilesRun {
  client: ManyFilesClient;
  /** Files to upload, and bytes in each (random, one buffer shared by every file). */
  count: number;
  bytes: number;
  /** Files in flight at once. */
  concurrency: number;
  /** After this many milliseconds the files not yet ended are cancelled, and the run counts what was stored. */
  timeoutMs: number;
  /**
   * React clients: time only the batch joining the list. The hook's uploads go to a stand-in that never
   * settles (no request leaves the page, no progress comes), and the run ends at the first render whose
   * `files` holds every file.
   */
  growthOnly?: boolean;
  /**
   * Photo runs (`bench:previews`): every file is the same ~4 MB JPEG of 6000 × 4000 pixels (one blob made in the
   * page, referenced by every File: the page holds it once, each preview still decodes it), listed by the
   * components with their previews. Once the first rows show their pictures the page scrolls down by one screen
   * `scrollSteps` times, every `scrollEveryMs`, then back to the top (rows seen before: no new decode).
   */
  photos?: { scrollSteps: number; scrollEveryMs: number };
}

/** What a photo run measured in the page (chromium). */
export interface PhotoFigures {
  /** The JPEG's size, bytes. */
  photoBytes: number;
  /** Milliseconds from the files handed to the client to the first row showing its picture, and to every row in view showing it. */
  firstPictureMs?: number;
  firstRowsMs?: number;
  /** Largest and last `performance.memory.usedJSHeapSize` sampled every 250 ms (bytes). */
  heapPeakBytes: number;
  heapEndBytes: number;
  /** Rows seen showing their picture (counted once per row mounted). */
  picturedRows: number;
}

/** What the page answers. */
export interface ManyFilesResult {
  /** Files stored, and files that failed (cancelled ones at the time limit are neither). */
  done: number;
  failed: number;
  /** Milliseconds from the first file handed to the client to the last one ended. */
  ms: number;
  longTasks: LongTasks;
  /** The longest animation frames over 50 ms (chromium), each split into script, style and layout, rendering. */
  longFrames: LongFrame[];
  /**
   * React clients: milliseconds from the first file handed to the client to the first render whose `files` held
   * every file (the list grows some rows a frame: `use-growing-list.ts`).
   */
  filesWholeMs?: number;
  photo?: PhotoFigures;
}

declare global {
  interface Window {
    benchManyFiles(run: ManyFilesRun): Promise<ManyFilesResult>;
  }
}

const ENDPOINT = '/api/upbeam';

type Counts = Pick<ManyFilesResult, 'done' | 'failed'>;

/** Set by the React clients' first render whose `files` held every file (`performance.now()`). */
let filesWholeAt: number | undefined;

/**
 * Uploads `files`, `concurrency` at once, until `deadline` (a `performance.now()` time); resolves with the counts
 * (`growthOnly`: see {@link ManyFilesRun}).
 */
type Client = (files: File[], concurrency: number, deadline: number, growthOnly: boolean) => Promise<Counts>;

/**
 * A stand-in for the network (growth-only runs; named so: no request leaves the page): an upload that never
 * settles, so that no progress or status change renders while the list grows.
 */
const neverSettles = () => new Promise<never>(() => {});

/**
 * A bare loop: `concurrency` loops each taking the next file and uploading it with `upload`, until `deadline`;
 * counts what was stored and what failed.
 */
const bareLoop =
  (upload: (file: File) => Promise<unknown>): Client =>
  async (files, concurrency, deadline) => {
    let next = 0;
    let done = 0;
    let failed = 0;
    const loop = async () => {
      while (next < files.length && performance.now() < deadline) {
        const file = files[next++]!;
        try {
          await upload(file);
          done += 1;
        } catch {
          failed += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
    return { done, failed };
  };

/** The floor: a bare XHR loop (prepare, then one PUT with progress), `concurrency` loops taking the next file. */
const floor = bareLoop((file) => uploadWithProgress(file, () => {}, ENDPOINT));

/** One request with XMLHttpRequest, resolved with its answer's text (or rejected on a status >= 300). */
function xhrText(method: string, url: string, body: Blob | string | null, headers: Record<string, string>, progress: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const name in headers) xhr.setRequestHeader(name, headers[name]!);
    if (progress) xhr.upload.onprogress = () => {};
    xhr.onload = () => (xhr.status < 300 ? resolve(xhr.responseText) : reject(new Error(`${method} failed: ${xhr.status}`)));
    xhr.onerror = () => reject(new Error(`${method} failed: network`));
    xhr.send(body);
  });
}

/** As `floor`, the preparation request sent with XMLHttpRequest rather than `fetch` (as Upbeam sends it). */
const floorXhrPrepare = bareLoop(async (file) => {
  const body = JSON.stringify({ filename: file.name, filetype: file.type, _upload: { strategy: 'presigned' } });
  const prepared = await xhrText('POST', ENDPOINT, body, { 'Content-Type': 'application/json' }, false);
  const { url, headers } = JSON.parse(prepared) as { url: string; headers: Record<string, string> };
  await xhrText('PUT', url, file, headers, true);
});

/** Rows a bare DOM list joins a frame (the first growth step of `use-growing-list.ts`, kept for every frame). */
const FLOOR_LIST_STEP = 100;

/**
 * The floor of a list: the bare loop of `floor`, beside a list drawn with DOM calls and no framework. It has the
 * hook list's markup (a summary line, then one `<li>` a file: name, `<progress>`, status word); its rows join
 * FLOOR_LIST_STEP a frame; a row is written in its own request's progress and load events, the summary once a
 * frame. Nothing here can be cheaper for the page: what its frames cost is the browser's style, layout and paint
 * of such a document while it changes, the floor for any list of the same rows.
 */
const floorList: Client = async (files, concurrency, deadline) => {
  const summary = document.createElement('p');
  const list = document.createElement('ul');
  document.getElementById('root')!.append(summary, list);
  const percents = files.map(() => 0);
  const statuses = files.map(() => 'queued');
  const rows: DomRow[] = [];
  let done = 0;
  let running = true;
  const show = (index: number) => {
    const row = rows[index];
    if (!row) return;
    row.progress.value = percents[index]!;
    row.status.data = statuses[index]!;
  };
  const frame = () => {
    const rowsBefore = rows.length;
    const added = document.createDocumentFragment();
    for (let index = rowsBefore; index < Math.min(files.length, rowsBefore + FLOOR_LIST_STEP); index++) {
      const drawn = createDomRow(files[index]!.name, percents[index]!, statuses[index]!);
      rows.push(drawn);
      added.append(drawn.row);
    }
    list.append(added);
    if (rows.length === files.length) filesWholeAt ??= performance.now();
    const percent = percents.reduce((sum, value) => sum + value, 0) / files.length;
    summary.textContent = `${done} of ${rows.length} stored, ${percent.toFixed(0)} %`;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const indexes = new Map(files.map((file, index) => [file, index]));
  const counts = await bareLoop(async (file) => {
    const index = indexes.get(file)!;
    statuses[index] = 'uploading';
    show(index);
    try {
      await uploadWithProgress(file, (percent) => {
        percents[index] = percent;
        show(index);
      }, ENDPOINT);
      statuses[index] = 'done';
      done += 1;
    } catch (error) {
      statuses[index] = 'error';
      throw error;
    } finally {
      show(index);
    }
  })(files, concurrency, deadline, false);
  running = false;
  return counts;
};

/** The framework-free tracker, nothing rendered: resolves once no file is queued, uploading or paused. */
const tracker: Client = (files, concurrency, deadline) =>
  new Promise<Counts>((resolve) => {
    const uploads = new UploadTracker({ endpoint: { url: ENDPOINT }, concurrency });
    const timer = setTimeout(() => uploads.cancel(), Math.max(0, deadline - performance.now()));
    const stop = uploads.subscribe(() => {
      const { count } = uploads.getSummary();
      if (count.queued + count.uploading + count.paused > 0) return;
      clearTimeout(timer);
      stop();
      resolve({ done: count.done, failed: count.error });
    });
    uploads.add(files);
  });

/**
 * One row of the hook's list, memoized: the documented way to list many files. Its `style`: none, CSS
 * `content-visibility: auto` (the browser skips the style, layout and paint of the rows out of view), or contained.
 */
const Row = memo(function Row({ file, style }: { file: TrackedFile; style?: CSSProperties }) {
  return (
    <li style={style}>
      {file.file.name} <progress value={file.progress} max={100} /> {file.status}
    </li>
  );
});

/** One row of the ids list: reads its own file, so it renders when this file changes and the list does not. */
const IdRow = memo(function IdRow({ tracker, id }: { tracker: UseS3Upload['tracker']; id: string }) {
  const file = useTrackedFile(tracker, id);
  return file ? <Row file={file} style={OFFSCREEN_SKIPPED} /> : null;
});

/** The list of ids (`useTrackedIds`): renders again when a file is added or removed, not on progress. */
function IdsList({ tracker }: { tracker: UseS3Upload['tracker'] }) {
  const ids = useTrackedIds(tracker);
  return (
    <ul>
      {ids.map((id) => (
        <IdRow key={id} tracker={tracker} id={id} />
      ))}
    </ul>
  );
}

/** A row's height in the virtualized list (one line of text and a progress bar), in CSS pixels. */
const VIRTUAL_ROW_PX = 24;

/**
 * The list of ids, virtualized by TanStack Virtual: only the rows in view (and a few around) are in the DOM,
 * in a scrolling box of the page's height. The same rows as `IdsList`, without `content-visibility`.
 */
function VirtualIdsList({ tracker }: { tracker: UseS3Upload['tracker'] }) {
  const ids = useTrackedIds(tracker);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: ids.length, getScrollElement: () => scroller.current, estimateSize: () => VIRTUAL_ROW_PX, overscan: 10 });
  return (
    <div ref={scroller} style={{ height: '100vh', overflow: 'auto' }}>
      <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, listStyle: 'none' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <VirtualRow key={ids[item.index]} tracker={tracker} id={ids[item.index]!} top={item.start} />
        ))}
      </ul>
    </div>
  );
}

/** One row of the virtualized list, placed at `top` (CSS pixels): reads its own file. */
const VirtualRow = memo(function VirtualRow({ tracker, id, top }: { tracker: UseS3Upload['tracker']; id: string; top: number }) {
  const file = useTrackedFile(tracker, id);
  if (!file) return null;
  return (
    <li style={{ position: 'absolute', top: 0, transform: `translateY(${top}px)`, height: VIRTUAL_ROW_PX }}>
      {file.file.name} <progress value={file.progress} max={100} /> {file.status}
    </li>
  );
});

/** How a React client lists the files of its `useS3Upload`. */
type ListKind = 'rows' | 'rows-cv' | 'rows-contained' | 'ids' | 'ids-virtual' | 'components';

function FileList({ upload, kind }: { upload: UseS3Upload; kind: ListKind }) {
  if (kind === 'components') return <UploadList upload={upload} />;
  if (kind === 'ids') return <IdsList tracker={upload.tracker} />;
  if (kind === 'ids-virtual') return <VirtualIdsList tracker={upload.tracker} />;
  return (
    <ul style={kind === 'rows-contained' ? CONTAINED_LIST : undefined}>
      {upload.files.map((file) => (
        <Row key={file.id} file={file} style={kind === 'rows-cv' ? OFFSCREEN_SKIPPED : kind === 'rows-contained' ? CONTAINED_ROW : undefined} />
      ))}
    </ul>
  );
}

/**
 * `useS3Upload` with the summary and a list of the files (`kind`): memoized rows given their file (a plain
 * list, no virtualization), rows reading their own file by id, or the components' `UploadList`. It adds the
 * files once mounted and the browser idle, cancels what is left at `deadline`, and calls `onEnded` from the
 * render that shows every file ended.
 */
function HookList({
  files,
  concurrency,
  deadline,
  onEnded,
  kind,
  growthOnly,
}: {
  files: File[];
  concurrency: number;
  deadline: number;
  onEnded: (counts: Counts) => void;
  kind: ListKind;
  growthOnly: boolean;
}) {
  const upload = useS3Upload(growthOnly ? { uploader: neverSettles, concurrency } : { endpoint: { url: ENDPOINT }, concurrency });
  const { addFiles, cancel } = upload;
  useEffect(() => {
    // A drop comes after the page is drawn, never in the task that mounts it: the files are added once the
    // page is mounted and the browser idle (what a component does then, as the components' number formats,
    // is done before the drop, as in an app).
    const idle = requestIdleCallback(() => addFiles(files));
    const timer = setTimeout(() => cancel(), Math.max(0, deadline - performance.now()));
    return () => {
      cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, [addFiles, cancel, files, deadline]);
  const { count, progress } = upload.summary;
  if (upload.files.length === files.length) filesWholeAt ??= performance.now();
  const ended = upload.files.length === files.length && (growthOnly || count.queued + count.uploading + count.paused === 0);
  useEffect(() => {
    if (ended) onEnded({ done: count.done, failed: count.error });
  }, [ended, onEnded, count]);
  return (
    <section>
      <p>
        {count.done} of {upload.files.length} stored, {progress.toFixed(0)} %
      </p>
      <FileList upload={upload} kind={kind} />
    </section>
  );
}

/** Mounts a React client's component in the page; resolves with the counts it reports once every file ended. */
function mountReact(render: (onEnded: (counts: Counts) => void) => ReactNode): Promise<Counts> {
  return new Promise<Counts>((resolve) => createRoot(document.getElementById('root')!).render(render(resolve)));
}

/** A React client: `HookList` listing its files as `kind` says. */
const hookClient =
  (kind: ListKind): Client =>
  (files, concurrency, deadline, growthOnly) =>
    mountReact((onEnded) => (
      <HookList files={files} concurrency={concurrency} deadline={deadline} onEnded={onEnded} kind={kind} growthOnly={growthOnly} />
    ));

/** Links the components' stylesheet (page.css, see the import above) and waits for it. */
function linkStylesheet(): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: 'page.css' });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error('page.css did not load')));
    document.head.append(link);
  });
}

const components: Client = async (files, concurrency, deadline, growthOnly) => {
  await linkStylesheet();
  return hookClient('components')(files, concurrency, deadline, growthOnly);
};

const CLIENTS: Record<ManyFilesClient, Client> = {
  floor,
  'floor-xhr-prepare': floorXhrPrepare,
  'floor-list': floorList,
  tracker,
  'hook-list': hookClient('rows'),
  'hook-list-cv': hookClient('rows-cv'),
  'hook-list-contained': hookClient('rows-contained'),
  'ids-list': hookClient('ids'),
  'ids-list-virtual': hookClient('ids-virtual'),
  components,
};

/**
 * A 6000 × 4000 JPEG of ~4 MB: a gradient under faint noise (a random tile repeated), which compresses as a
 * photo does at quality 0.85 (made in the page: no file in the repository).
 */
async function makePhoto(): Promise<Blob> {
  const canvas = new OffscreenCanvas(6000, 4000);
  const context = canvas.getContext('2d')!;
  const gradient = context.createLinearGradient(0, 0, 6000, 4000);
  gradient.addColorStop(0, '#0b3d91');
  gradient.addColorStop(0.5, '#f59e0b');
  gradient.addColorStop(1, '#065f46');
  context.fillStyle = gradient;
  context.fillRect(0, 0, 6000, 4000);
  const tile = new OffscreenCanvas(509, 503);
  const pixels = new ImageData(509, 503);
  for (let at = 0; at < pixels.data.length; at += 4) {
    pixels.data.fill(Math.random() * 255, at, at + 3);
    pixels.data[at + 3] = 255;
  }
  tile.getContext('2d')!.putImageData(pixels, 0, 0);
  context.globalAlpha = 0.08;
  context.fillStyle = context.createPattern(tile, 'repeat')!;
  context.fillRect(0, 0, 6000, 4000);
  return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
}

/** Whether a row's thumbnail shows its picture: a preview drawn, or (the old thumbnail) its full image loaded. */
const pictured = (thumbnail: Element) =>
  thumbnail instanceof HTMLCanvasElement ? thumbnail.dataset.preview === 'drawn' : thumbnail instanceof HTMLImageElement && thumbnail.complete && thumbnail.naturalWidth > 0;

/**
 * Watches a photo run: each frame, the rows in view and whether they show their picture; the JS heap every
 * 250 ms; scrolls as {@link ManyFilesRun.photos} says. `stop()` gives the figures.
 */
function watchPhotos(started: number, photoBytes: number, { scrollSteps, scrollEveryMs }: NonNullable<ManyFilesRun['photos']>) {
  const memory = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
  const figures: PhotoFigures = { photoBytes, heapPeakBytes: memory(), heapEndBytes: 0, picturedRows: 0 };
  const seen = new WeakSet<Element>();
  let running = true;
  let scrolled = 0;
  const heap = setInterval(() => (figures.heapPeakBytes = Math.max(figures.heapPeakBytes, memory())), 250);
  const scroll = () => {
    if (!running) return;
    if (scrolled === scrollSteps) return void window.scrollTo(0, 0);
    scrolled += 1;
    window.scrollBy(0, window.innerHeight);
    setTimeout(scroll, scrollEveryMs);
  };
  const frame = () => {
    if (!running) return;
    const inView = Array.from(document.querySelectorAll('[data-upbeam="thumbnail"]')).filter((element) => {
      const box = element.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    for (const element of inView) {
      if (seen.has(element) || !pictured(element)) continue;
      seen.add(element);
      figures.picturedRows += 1;
      figures.firstPictureMs ??= performance.now() - started;
    }
    if (figures.firstRowsMs === undefined && inView.length > 0 && inView.every(pictured)) {
      figures.firstRowsMs = performance.now() - started;
      setTimeout(scroll, scrollEveryMs);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return () => {
    running = false;
    clearInterval(heap);
    figures.heapEndBytes = memory();
    figures.heapPeakBytes = Math.max(figures.heapPeakBytes, figures.heapEndBytes);
    return figures;
  };
}

window.benchManyFiles = async ({ client, count, bytes, concurrency, timeoutMs, growthOnly = false, photos }) => {
  let files: File[];
  let photo: Blob | undefined;
  if (photos) {
    photo = await makePhoto();
    files = Array.from({ length: count }, (_, index) => new File([photo!], `photo-${index}.jpg`, { type: 'image/jpeg' }));
  } else {
    const data = new Uint8Array(bytes);
    crypto.getRandomValues(data);
    files = Array.from({ length: count }, (_, index) => new File([data], `file-${index}.bin`, { type: 'application/octet-stream' }));
  }
  const started = performance.now();
  const stopWatching = photos && photo ? watchPhotos(started, photo.size, photos) : undefined;
  // For a traced run (`MANY_FILES_TRACE`): its tasks are counted from here, as the long tasks are.
  performance.mark(RUN_STARTED_MARK);
  filesWholeAt = undefined;
  const { done, failed } = await CLIENTS[client](files, concurrency, started + timeoutMs, growthOnly);
  const ms = performance.now() - started;
  const photoFigures = stopWatching?.();
  // The last tasks may still be queued for the observer: a macrotask lets them arrive.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const filesWholeMs = filesWholeAt === undefined ? undefined : filesWholeAt - started;
  return {
    done,
    failed,
    ms,
    longTasks: longTasksSince(started),
    longFrames: longFramesSince(started),
    ...(filesWholeMs !== undefined && { filesWholeMs }),
    ...(photoFigures && { photo: photoFigures }),
  };
};
