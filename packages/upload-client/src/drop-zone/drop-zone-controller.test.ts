import { describe, expect, it, vi } from 'vitest';
import { DropZoneController } from './drop-zone-controller';
import { sortFiles } from './sort-files';

const file = (name: string, type = 'image/png', size = 10) => new File([new Uint8Array(size)], name, { type });

/**
 * Stand-ins for the browser's drag events (no DOM in this project; the example pages drop for real in
 * chromium, Firefox and WebKit): the controller reads `dataTransfer`, `preventDefault()` and `defaultPrevented`.
 */
function dragEvent(files: File[] = [], types = ['Files']) {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
    dataTransfer: { types, files, items: [], dropEffect: 'none' },
  };
  return event as unknown as DragEvent & { defaultPrevented: boolean };
}

describe('sortFiles', () => {
  it('splits by the rules, then past maxFiles', () => {
    const { accepted, rejected } = sortFiles(
      [{ file: file('a.png') }, { file: file('b.pdf', 'application/pdf') }, { file: file('c.png') }, { file: file('d.png') }],
      { accept: 'image/*', maxFiles: 2 },
    );
    expect(accepted.map((entry) => entry.file.name)).toEqual(['a.png', 'c.png']);
    expect(rejected.map((entry) => [entry.file.name, entry.code])).toEqual([
      ['b.pdf', 'file-invalid-type'],
      ['d.png', 'too-many-files'],
    ]);
  });

  it('takes the first accepted file only when multiple is false', () => {
    const { accepted, rejected } = sortFiles([{ file: file('a.png') }, { file: file('b.png') }], { multiple: false });
    expect(accepted).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ code: 'too-many-files', message: 'b.png: at most 1 files at once.' });
  });
});

describe('DropZoneController', () => {
  it('is drag-active while a file drag is over the root, children crossed included', () => {
    const zone = new DropZoneController({ onDrop: () => {} });
    const changes = vi.fn();
    zone.subscribe(changes);
    const enter = dragEvent();
    zone.dragEnter(enter);
    zone.dragEnter(dragEvent());
    expect(enter.defaultPrevented).toBe(true);
    zone.dragLeave();
    expect(zone.isDragActive()).toBe(true);
    zone.dragLeave();
    expect(zone.isDragActive()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('ignores a drag of text, and every drag when disabled', () => {
    const zone = new DropZoneController({ onDrop: () => {} });
    zone.dragEnter(dragEvent([], ['text/plain']));
    expect(zone.isDragActive()).toBe(false);
    zone.setOptions({ onDrop: () => {}, disabled: true });
    zone.dragEnter(dragEvent());
    expect(zone.isDragActive()).toBe(false);
  });

  it('gives a drop its sorted files', async () => {
    const onDrop = vi.fn();
    const zone = new DropZoneController({ onDrop, maxSize: 5 });
    zone.dragEnter(dragEvent());
    zone.drop(dragEvent([file('small.png', 'image/png', 3), file('big.png', 'image/png', 9)]));
    expect(zone.isDragActive()).toBe(false);
    await vi.waitFor(() => expect(onDrop).toHaveBeenCalledOnce());
    const [accepted, rejected] = onDrop.mock.calls[0]!;
    expect(accepted).toEqual([{ file: expect.objectContaining({ name: 'small.png' }) }]);
    expect(rejected).toMatchObject([{ code: 'file-too-large' }]);
  });

  it('counts maxFiles over every batch of a dropped folder', async () => {
    const onDrop = vi.fn();
    const zone = new DropZoneController({ onDrop, maxFiles: 150 });
    const children = Array.from({ length: 1200 }, (_, index) => {
      const fullPath = `/big/${index}.png`;
      return { isFile: true, isDirectory: false, fullPath, file: (resolve: (f: File) => void) => resolve(file(`${index}.png`)) };
    });
    let next = 0;
    // A stand-in folder entry (a real one comes only from a drag of the desktop), read 100 entries at a time as Chromium does.
    const folder = { isFile: false, isDirectory: true, fullPath: '/big', createReader: () => ({ readEntries: (resolve: (e: unknown[]) => void) => resolve(children.slice(next, (next += 100))) }) };
    const item = { kind: 'file', webkitGetAsEntry: () => folder, getAsFile: () => null };
    zone.drop({ preventDefault() {}, dataTransfer: { types: ['Files'], items: [item], files: [] } } as unknown as DragEvent);
    await vi.waitFor(() => expect(onDrop.mock.calls.flatMap(([accepted, rejected]) => [...accepted, ...rejected])).toHaveLength(1200));
    expect(onDrop.mock.calls.length).toBeGreaterThan(1);
    expect(onDrop.mock.calls.flatMap(([accepted]) => accepted)).toHaveLength(150);
    expect(onDrop.mock.calls.flatMap(([, rejected]) => rejected).every((rejection) => rejection.code === 'too-many-files')).toBe(true);
  });

  it('opens the dialog on click and Enter, not when disabled or prevented', () => {
    const zone = new DropZoneController({ onDrop: () => {} });
    const input = { click: vi.fn() } as unknown as HTMLInputElement;
    zone.setInput(input);
    zone.click({ defaultPrevented: false } as Event);
    zone.click({ defaultPrevented: true } as Event);
    const root = {};
    zone.keyDown({ key: 'Enter', target: root, currentTarget: root, defaultPrevented: false, preventDefault() {} } as unknown as KeyboardEvent);
    zone.keyDown({ key: 'Enter', target: {}, currentTarget: root, defaultPrevented: false, preventDefault() {} } as unknown as KeyboardEvent);
    expect(input.click).toHaveBeenCalledTimes(2);
    zone.setOptions({ onDrop: () => {}, disabled: true });
    zone.open();
    expect(input.click).toHaveBeenCalledTimes(2);
  });

  it('takes picked files with their folder path and clears the input', () => {
    const onDrop = vi.fn();
    const zone = new DropZoneController({ onDrop });
    const picked = file('a.png');
    Object.defineProperty(picked, 'webkitRelativePath', { value: 'photos/a.png' });
    const input = { files: [picked], value: 'C:\\fakepath\\a.png' };
    zone.inputChange({ target: input } as unknown as Event);
    expect(input.value).toBe('');
    expect(onDrop).toHaveBeenCalledWith([{ file: picked, path: 'photos/a.png' }], []);
  });
});
