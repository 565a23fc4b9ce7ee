/**
 * Files of a dropped folder: the `FileSystemEntry` tree of a drop (`DataTransferItem.webkitGetAsEntry()`,
 * in every engine despite its prefix) walked into files with their path inside the drop.
 */

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

/** Every entry of a folder: `readEntries` answers in batches (100 in Chromium) until an empty one. */
async function childrenOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

/**
 * The files under `entry`, depth first in the order the browser lists them, each with its path from the
 * drop (`photos/2024/a.jpg`, from `fullPath` `/photos/2024/a.jpg`).
 */
export async function filesOfEntry(entry: FileSystemEntry): Promise<DroppedFile[]> {
  if (entry.isFile) {
    const file = await fileOf(entry as FileSystemFileEntry);
    const path = cleanRelativePath(entry.fullPath);
    return [path === undefined ? { file } : { file, path }];
  }
  if (!entry.isDirectory) return [];
  const nested = await Promise.all((await childrenOf(entry as FileSystemDirectoryEntry)).map(filesOfEntry));
  return nested.flat();
}

/**
 * The files of a drop or paste. Folders are read through their entries; a lone file is taken as it is.
 * Must be called during the event: the browser empties `items` once the handler returns (the entries,
 * taken at once, stay readable).
 */
export function filesOfTransfer(transfer: DataTransfer): Promise<DroppedFile[]> {
  const items = Array.from(transfer.items ?? []).filter((item) => item.kind === 'file');
  if (items.length === 0) return Promise.resolve(Array.from(transfer.files ?? [], (file) => ({ file })));
  const taken = items.map((item) => {
    const entry = item.webkitGetAsEntry?.();
    return entry?.isDirectory ? entry : item.getAsFile();
  });
  return Promise.all(
    taken.map((entryOrFile) => {
      if (entryOrFile === null) return [];
      if (entryOrFile instanceof Blob) return [{ file: entryOrFile }];
      return filesOfEntry(entryOrFile);
    }),
  ).then((lists) => lists.flat());
}
