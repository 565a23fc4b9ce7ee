import { describe, expect, it } from 'vitest';
import { cleanRelativePath, filesOfEntry, pickedFile, walkEntries } from './folder-entries';

/**
 * Stand-ins for the browser's `FileSystemEntry` tree (a drop of a real folder cannot be synthesized in a
 * browser test): the walker reads only `isFile`, `isDirectory`, `fullPath`, `file()` and `createReader()`.
 * The reader answers in batches of 2, as Chromium's does in batches of 100.
 */
function fakeFileEntry(fullPath: string): FileSystemFileEntry {
  const name = fullPath.split('/').at(-1)!;
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (resolve: (file: File) => void) => resolve(new File([fullPath], name)),
  } as unknown as FileSystemFileEntry;
}

function fakeDirectoryEntry(fullPath: string, children: FileSystemEntry[], batch = 2): FileSystemDirectoryEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').at(-1)!,
    fullPath,
    createReader: () => {
      let next = 0;
      return {
        readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
          resolve(children.slice(next, next + batch));
          next += batch;
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

describe('filesOfEntry (a dropped folder)', () => {
  it('walks every level and batch, keeping each file’s path from the drop', async () => {
    const tree = fakeDirectoryEntry('/photos', [
      fakeFileEntry('/photos/a.jpg'),
      fakeFileEntry('/photos/b.jpg'),
      fakeDirectoryEntry('/photos/2024', [fakeFileEntry('/photos/2024/c.jpg'), fakeDirectoryEntry('/photos/2024/empty', [])]),
    ]);
    const files = await filesOfEntry(tree);
    expect(files.map(({ file, path }) => [file.name, path])).toEqual([
      ['a.jpg', 'photos/a.jpg'],
      ['b.jpg', 'photos/b.jpg'],
      ['c.jpg', 'photos/2024/c.jpg'],
    ]);
  });

  it('hands a large folder on in batches as it is read: the first at once, then at most 1,000 files each, in order', async () => {
    const names = Array.from({ length: 2500 }, (_, index) => `/big/${String(index).padStart(4, '0')}.bin`);
    const tree = fakeDirectoryEntry('/big', names.map(fakeFileEntry), 100);
    const batches: string[][] = [];
    await walkEntries([tree], (batch) => batches.push(batch.map(({ path }) => path!)));
    // The first files found are handed on at once (the first rows drawn while the rest is read).
    expect(batches[0]!.length).toBeGreaterThan(0);
    expect(batches[0]!.length).toBeLessThanOrEqual(100);
    expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(1000);
    expect(batches.flat()).toEqual(names.map((name) => name.slice(1)));
  });

  it('gives a lone dropped file no path', async () => {
    expect(await filesOfEntry(fakeFileEntry('/a.jpg'))).toEqual([{ file: expect.any(File) }]);
  });
});

describe('cleanRelativePath', () => {
  it.each([
    ['photos/2024/a.jpg', 'photos/2024/a.jpg'],
    ['/photos//a.jpg', 'photos/a.jpg'],
    ['../../etc/passwd', 'etc/passwd'],
    ['photos\\2024\\a.jpg', 'photos/2024/a.jpg'],
    ['./a.jpg', undefined],
    ['a.jpg', undefined],
    ['', undefined],
  ])('%j is %j', (input, expected) => {
    expect(cleanRelativePath(input)).toBe(expected);
  });

  it('reads a picked folder file’s webkitRelativePath', () => {
    const file = new File(['x'], 'a.jpg');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'photos/a.jpg' });
    expect(pickedFile(file)).toEqual({ file, path: 'photos/a.jpg' });
  });
});
