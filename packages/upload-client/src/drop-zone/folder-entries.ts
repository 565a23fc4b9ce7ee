/**
 * Files of a dropped folder: the `FileSystemEntry` tree of a drop (`DataTransferItem.webkitGetAsEntry()`,
 * in every engine despite its prefix) walked into files with their path inside the drop.
 */

import { nextTask } from '../next-task';

/** A file and its path inside a dropped or picked folder (absent for a file dropped alone). */
export interface DroppedFile {
  file: File;
  path?: string;
}

/**
 * A relative path made safe to send: backslashes become `/`, empty, `.` and `..` segments are dropped.
 * `undefined` when no folder is left (a lone name). The server sanitizes each segment again.
 */
export function cleanRelativePath(path: string): string | undefined {
  const segments = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  return segments.length > 1 ? segments.join('/') : undefined;
}

/** A picked file with its folder path (`webkitRelativePath` of an `<input webkitdirectory>`), when it has one. */
export function pickedFile(file: File): DroppedFile {
  const path = cleanRelativePath(file.webkitRelativePath ?? '');
  return path === undefined ? { file } : { file, path };
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** One batch of a folder's entries: `readEntries` answers in batches (100 in Chromium) until an empty one. */
const nextEntries = (reader: FileSystemDirectoryReader) =>
  new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

/** A file found in the walk, with its path from the drop (`photos/2024/a.jpg`, from `fullPath` `/photos/2024/a.jpg`). */
async function droppedFile(entry: FileSystemFileEntry): Promise<DroppedFile> {
  const file = await fileOf(entry);
  const path = cleanRelativePath(entry.fullPath);
  return path === undefined ? { file } : { file, path };
}

/**
 * The walk's work between two waits for a new task (milliseconds): a native `readEntries` or `file()` answer is a
 * task of its own, but a walk whose answers come at once (a stand-in tree) would otherwise hold the thread.
 */
const SLICE_MS = 10;

/**
 * Files found are handed on at once the first time (the first rows drawn within a frame or two of the drop),
 * then every BATCH_MS or BATCH_FILES files, whichever comes first: a folder of 50,000 files reaches the list in
 * about a hundred batches, each tracked in a few milliseconds, never one task of 50,000.
 */
const BATCH_MS = 100;
const BATCH_FILES = 1000;

/**
 * `file()` calls in flight at once. Each answer makes a `File` on the page's thread, and Chromium delivers answers
 * that arrive together in one task: 100 at once (a `readEntries` batch) held the page 200-380 ms on 2 busy cores,
 * 10 at once never 50 ms, reading as fast (2,000 files in 0.74 s; one at a time 1.0-1.2 s; bench/notes/lists-at-scale.md).
 */
const FILES_AT_ONCE = 10;

/**
 * Walks the entries of a drop (`roots`, in order) depth first, in the order the browser lists them, without
 * recursion (a deep tree holds no stack of promises), and hands the files found to `found` in batches as they
 * come (see BATCH_MS): the first rows of a folder of thousands show while the rest is still read. The files'
 * `file()` are asked for FILES_AT_ONCE at a time. Resolves once every file has been handed on; rejects
 * with the browser's error when an entry cannot be read (the files handed on before stay handed on).
 */
export async function walkEntries(roots: readonly (FileSystemEntry | File)[], found: (batch: DroppedFile[]) => void): Promise<void> {
  let buffered: DroppedFile[] = [];
  let flushedAt: number | undefined;
  let sliceStart = performance.now();
  const flush = (force: boolean) => {
    const now = performance.now();
    if (buffered.length === 0) return;
    if (!force && flushedAt !== undefined && buffered.length < BATCH_FILES && now - flushedAt < BATCH_MS) return;
    const batch = buffered;
    buffered = [];
    flushedAt = now;
    found(batch);
  };
  /** After an await: a new slice when a native answer started a new task; else a wait for one once the slice is spent. */
  const pace = async () => {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTask();
      sliceStart = performance.now();
    }
  };
  // Each level: what is left of the batch read last, and the reader for the next one.
  const stack: { reader: FileSystemDirectoryReader | undefined; pending: (FileSystemEntry | File)[] }[] = [{ reader: undefined, pending: [...roots] }];
  while (stack.length > 0) {
    const level = stack.at(-1)!;
    if (level.pending.length === 0) {
      const read = level.reader ? await nextEntries(level.reader) : [];
      if (read.length === 0) {
        stack.pop();
        continue;
      }
      level.pending = read;
      flush(false);
      await pace();
      continue;
    }
    const next = level.pending[0]!;
    if (next instanceof Blob) {
      level.pending.shift();
      buffered.push({ file: next });
      continue;
    }
    if (next.isDirectory) {
      level.pending.shift();
      stack.push({ reader: (next as FileSystemDirectoryEntry).createReader(), pending: [] });
      continue;
    }
    // The files up to the next folder, FILES_AT_ONCE of them read at once (in order).
    let end = 0;
    while (end < Math.min(level.pending.length, FILES_AT_ONCE) && !(level.pending[end] instanceof Blob) && (level.pending[end] as FileSystemEntry).isFile) end += 1;
    const files = level.pending.splice(0, Math.max(end, 1)) as FileSystemEntry[];
    const read = await Promise.all(files.filter((entry) => entry.isFile).map((entry) => droppedFile(entry as FileSystemFileEntry)));
    for (const file of read) buffered.push(file);
    if (flushedAt === undefined) flush(true);
    else flush(false);
    await pace();
  }
  flush(true);
}

/**
 * The files under `entry`, depth first in the order the browser lists them, each with its path from the
 * drop (`photos/2024/a.jpg`, from `fullPath` `/photos/2024/a.jpg`).
 */
export async function filesOfEntry(entry: FileSystemEntry): Promise<DroppedFile[]> {
  const files: DroppedFile[] = [];
  await walkEntries([entry], (batch) => {
    for (const file of batch) files.push(file);
  });
  return files;
}

/**
 * The entries of a drop or paste, taken during the event (the browser empties `items` once the handler returns;
 * the entries, taken at once, stay readable): a folder's entry, or a lone file as it is.
 */
function takeTransfer(transfer: DataTransfer): (FileSystemEntry | File)[] {
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file');
  if (items.length === 0) return Array.from(transfer.files ?? []);
  return items.flatMap((item) => {
    const entry = item.webkitGetAsEntry?.();
    const taken = entry?.isDirectory ? entry : item.getAsFile();
    return taken === null ? [] : [taken];
  });
}

/**
 * The files of a drop or paste, handed to `found` in batches as a folder is read (see {@link walkEntries}).
 * Must be called during the event. Resolves once every file has been handed on.
 */
export function walkTransfer(transfer: DataTransfer, found: (batch: DroppedFile[]) => void): Promise<void> {
  return walkEntries(takeTransfer(transfer), found);
}

/**
 * The files of a drop or paste. Folders are read through their entries; a lone file is taken as it is.
 * Must be called during the event: the browser empties `items` once the handler returns (the entries,
 * taken at once, stay readable).
 */
export async function filesOfTransfer(transfer: DataTransfer): Promise<DroppedFile[]> {
  const files: DroppedFile[] = [];
  await walkTransfer(transfer, (batch) => {
    for (const file of batch) files.push(file);
  });
  return files;
}
