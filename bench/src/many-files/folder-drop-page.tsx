/**
 * The page of the folder-drop benchmark (`folder-drop.ts`): a folder of tens of thousands of small files dropped
 * as a user drops it (the runner drives a real drop of a folder on disk, `Input.dispatchDragEvent`: the page gets
 * chromium's `FileSystemDirectoryEntry` tree) onto one of three clients:
 * - `floor`: a bare XHR loop (prepare with `fetch`, one PUT each, `concurrency` loops) taking files as a plain
 *   walk of the entries finds them; it draws nothing;
 * - `uploader`: the components' `<Uploader>` (its drop zone, summary, Cancel all, Clear list, virtualized list);
 * - `hook-virtual`: `useS3Upload` and `useDropZone` with the list drawn as docs/guide/many-files.md advises for a
 *   plain list: ids from `useTrackedIds`, rows reading their own file, virtualized by TanStack Virtual.
 * The runner calls `window.folderDrop.setup(...)`, drops, polls `state()`, then `stop()` (Cancel all, timed) and
 * `clear()` (Clear list, timed), measuring the heap between them over DevTools.
 */
import { useS3Upload, useDropZone, useTrackedFile, useTrackedIds, type UseS3Upload } from '@upbeam/upload-react';
import { Uploader } from '@upbeam/upload-react/components';
// Bundled by esbuild into folder-drop-page.css, which the `uploader` client puts in a <style> before it mounts.
import '@upbeam/upload-react/components.css';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { uploadWithProgress } from '../bundle/floor';
import { longTasksSince, type LongTasks } from '../upload/long-tasks';

export type FolderDropClient = 'floor' | 'uploader' | 'hook-virtual';

export interface FolderDropSetup {
  client: FolderDropClient;
  concurrency: number;
  /** Files the folder holds (the run ends early once every one has ended). */
  count: number;
}

/** What the page reports while a run goes on (milliseconds from the drop event). */
export interface FolderDropState {
  dropped: boolean;
  /** Files the client holds (tracked, or found by the floor's walk), stored, failed. */
  found: number;
  done: number;
  failed: number;
  /** The first row drawn (a frame with a row in the DOM), and every file of the folder held. */
  firstRowMs?: number;
  allFoundMs?: number;
}

export interface FolderDropStop {
  /** Milliseconds from the drop to the stop, files stored by then, long tasks from the drop to the stop. */
  ms: number;
  done: number;
  failed: number;
  longTasks: LongTasks;
  /** The long tasks themselves: milliseconds from the drop to each one's start, and its length (the 5 longest). */
  longest: { at: number; ms: number }[];
  /** Cancel all: the click's task, and until the next frame after it (Upbeam clients; `undefined` for the floor). */
  cancelTaskMs?: number;
  cancelFrameMs?: number;
}

export interface FolderDropClear {
  clearTaskMs?: number;
  clearFrameMs?: number;
}

declare global {
  interface Window {
    folderDrop: {
      setup(setup: FolderDropSetup): Promise<{ x: number; y: number }>;
      state(): FolderDropState;
      stop(): Promise<FolderDropStop>;
      clear(): Promise<FolderDropClear>;
    };
  }
}

const ENDPOINT = '/api/upbeam';

let dropAt: number | undefined;
/** Every task over 50 ms (start, length), to tell the drop's own task (the floor has it too) from the client's. */
const tasks: { start: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, ms: entry.duration });
}).observe({ type: 'longtask' });
const state: FolderDropState = { dropped: false, found: 0, done: 0, failed: 0 };
/** The Upbeam clients' uploads (set by their component), for the counts and the floor's stop. */
let upload: UseS3Upload | undefined;
let stopFloor: (() => Promise<void>) | undefined;
let clearFloor: (() => void) | undefined;

// Before any handler of the page: the drop's time (the event's timestamp, the clock of `performance.now()`).
window.addEventListener(
  'drop',
  (event) => {
    dropAt = event.timeStamp;
    state.dropped = true;
    watchFirstRow();
  },
  { capture: true },
);

/** Each frame after the drop until a row is in the DOM: the first row drawn. */
function watchFirstRow() {
  const frame = () => {
    if (document.querySelector('[data-row], [data-upbeam="row"]')) return void (state.firstRowMs = performance.now() - dropAt!);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const sinceDrop = () => performance.now() - (dropAt ?? performance.now());

/** The next frame drawn, then a task after it: what a click's change costs until the page shows it. */
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

// ---------------------------------------------------------------------------------------------------------------
// The floor: a bare walk of the entries feeding a bare XHR loop.

/** The floor's walk: folder by folder, `readEntries` until empty, each batch's files read ten at a time. */
async function walkPlain(root: FileSystemEntry, found: (files: File[]) => void): Promise<void> {
  const folders: FileSystemDirectoryEntry[] = root.isDirectory ? [root as FileSystemDirectoryEntry] : [];
  while (folders.length > 0) {
    const reader = folders.pop()!.createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const entry of batch) if (entry.isDirectory) folders.push(entry as FileSystemDirectoryEntry);
      // Ten `file()` at once: a hundred (a whole batch) made tasks of 200-380 ms, ten none, as fast.
      const entries = batch.filter((entry) => entry.isFile) as FileSystemFileEntry[];
      for (let at = 0; at < entries.length; at += 10) {
        found(await Promise.all(entries.slice(at, at + 10).map((entry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject)))));
      }
    }
  }
}

function mountFloor(concurrency: number, count: number): HTMLElement {
  const zone = Object.assign(document.createElement('div'), { textContent: 'Drop a folder here' });
  zone.style.cssText = 'width: 400px; height: 200px; border: 2px dashed gray';
  document.getElementById('root')!.append(zone);
  let files: File[] = [];
  let next = 0;
  let stopped = false;
  /** The loops waiting for the walk's next files. */
  let waiting: (() => void)[] = [];
  const wakeAll = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  let walking = true;
  const loop = async () => {
    for (;;) {
      if (stopped) return;
      if (next >= files.length) {
        if (!walking) return;
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      const file = files[next++]!;
      try {
        await uploadWithProgress(file, () => {}, ENDPOINT);
        state.done += 1;
      } catch {
        state.failed += 1;
      }
    }
  };
  let loops: Promise<void[]> | undefined;
  zone.addEventListener('dragover', (event) => event.preventDefault());
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    const entry = event.dataTransfer!.items[0]!.webkitGetAsEntry()!;
    loops = Promise.all(Array.from({ length: concurrency }, loop));
    void walkPlain(entry, (found) => {
      for (const file of found) files.push(file);
      state.found = files.length;
      if (files.length === count) state.allFoundMs = sinceDrop();
      wakeAll();
    }).finally(() => {
      walking = false;
      wakeAll();
    });
  });
  stopFloor = async () => {
    stopped = true;
    wakeAll();
    await loops;
  };
  clearFloor = () => {
    files = [];
  };
  return zone;
}

// ---------------------------------------------------------------------------------------------------------------
// `<Uploader>`: the whole component, given the app's uploads (so that the page reads their counts).

function UploaderClient({ concurrency }: { concurrency: number }) {
  const uploads = useS3Upload({ endpoint: { url: ENDPOINT }, concurrency });
  upload = uploads;
  return <Uploader upload={uploads} />;
}

// ---------------------------------------------------------------------------------------------------------------
// A plain `useS3Upload` list as the many-files guide draws 50,000 rows: TanStack Virtual over `useTrackedIds`.

const ROW_PX = 24;

const VirtualRow = memo(function VirtualRow({ tracker, id, top }: { tracker: UseS3Upload['tracker']; id: string; top: number }) {
  const file = useTrackedFile(tracker, id);
  if (!file) return null;
  return (
    <li data-row="" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${top}px)` }}>
      {file.path ?? file.file.name} <progress value={file.progress} max={100} /> {file.status}
    </li>
  );
});

function VirtualList({ tracker }: { tracker: UseS3Upload['tracker'] }) {
  const ids = useTrackedIds(tracker);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: ids.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 10 });
  return (
    <div ref={scroller} style={{ height: 400, overflow: 'auto' }}>
      <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0, listStyle: 'none' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <VirtualRow key={ids[item.index]} tracker={tracker} id={ids[item.index]!} top={item.start} />
        ))}
      </ul>
    </div>
  );
}

function HookVirtualClient({ concurrency }: { concurrency: number }) {
  const uploads = useS3Upload({ endpoint: { url: ENDPOINT }, concurrency });
  upload = uploads;
  const { addFiles, summary } = uploads;
  const { getRootProps, getInputProps } = useDropZone({ onDrop: (accepted) => addFiles(accepted) });
  return (
    <section>
      <div {...getRootProps({ style: { width: 400, height: 200, border: '2px dashed gray' } })} data-upbeam="dropzone">
        <input {...getInputProps()} />
        Drop a folder here
      </div>
      <p>
        {summary.count.done} stored, {summary.progress.toFixed(0)} %{' '}
        <button type="button" data-action="cancel-all" onClick={() => uploads.cancel()}>
          Cancel all
        </button>{' '}
        <button type="button" data-action="clear" onClick={uploads.resetFiles}>
          Clear list
        </button>
      </p>
      <VirtualList tracker={uploads.tracker} />
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------

/** Resolves once the browser is idle (the page mounted and drawn: a drop never comes in the task that mounts it). */
const idle = () => new Promise<void>((resolve) => requestIdleCallback(() => resolve()));

async function inlineStylesheet(): Promise<void> {
  const css = await (await fetch('folder-drop-page.css')).text();
  document.head.append(Object.assign(document.createElement('style'), { textContent: css }));
}

/** Counts of the Upbeam clients, read from their tracker (O(1): its summary). */
function readUpload() {
  if (!upload) return;
  // The hook's tracker is an `UploadTracker`: its summary is read at once (the hook's `summary` is paced).
  const { count } = (upload.tracker as unknown as { getSummary: () => { count: Record<string, number> } }).getSummary();
  state.found = upload.tracker.getIds().length;
  state.done = count.done!;
  state.failed = count.error!;
}

let setupCount = 0;

window.folderDrop = {
  async setup({ client, concurrency, count }) {
    setupCount = count;
    let zone: Element;
    if (client === 'floor') zone = mountFloor(concurrency, count);
    else {
      if (client === 'uploader') await inlineStylesheet();
      createRoot(document.getElementById('root')!).render(
        client === 'uploader' ? <UploaderClient concurrency={concurrency} /> : <HookVirtualClient concurrency={concurrency} />,
      );
      await idle();
      zone = document.querySelector('[data-upbeam="dropzone"]')!;
    }
    await idle();
    const box = zone.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  },
  state() {
    readUpload();
    if (upload && state.allFoundMs === undefined && state.found === setupCount) state.allFoundMs = sinceDrop();
    return { ...state };
  },
  async stop() {
    const ms = sinceDrop();
    readUpload();
    const { done, failed } = state;
    const longTasks = longTasksSince(dropAt ?? 0);
    const longest = tasks
      .filter((task) => task.start >= (dropAt ?? 0))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((task) => ({ at: Math.round(task.start - dropAt!), ms: Math.round(task.ms) }));
    if (!upload) {
      await stopFloor?.();
      return { ms, done, failed, longTasks, longest };
    }
    const button = document.querySelector<HTMLButtonElement>('[data-action="cancel-all"]')!;
    const started = performance.now();
    button.click();
    const cancelTaskMs = performance.now() - started;
    await nextFrame();
    const cancelFrameMs = performance.now() - started;
    return { ms, done, failed, longTasks, longest, cancelTaskMs, cancelFrameMs };
  },
  async clear() {
    if (!upload) {
      clearFloor?.();
      return {};
    }
    // Clear list is enabled once nothing is active (the files in flight at Cancel all have ended).
    const button = () => document.querySelector<HTMLButtonElement>('[data-action="clear"]')!;
    for (let waited = 0; button().disabled && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    button().click();
    const clearTaskMs = performance.now() - started;
    await nextFrame();
    const clearFrameMs = performance.now() - started;
    upload = undefined;
    return { clearTaskMs, clearFrameMs };
  },
};
