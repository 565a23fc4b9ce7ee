// @vitest-environment jsdom
import { UploadTracker, type TrackedFile, type Uploader } from '@upbeam/upload-client';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { UseS3Upload } from '../use-s3-upload';
import { DEFAULT_LABELS } from './labels';
import { UploadList } from './upload-list';
import { UploadRow } from './upload-row';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Rendering only (jsdom; the browser suite components.e2e.test.ts uploads for real): a real UploadTracker
// whose uploader is a stand-in that never ends and reports the bytes the test sends (`send`), and `upload`
// holding it as `useS3Upload()` returns it.
function trackerWithStandInUploader() {
  const sends = new Map<string, (bytes: number) => void>();
  const uploader: Uploader = (file, options) =>
    new Promise(() => {
      sends.set(file.name, (bytes) => options.onProgress?.({ uploaded: bytes, size: file.size, progress: (bytes / file.size) * 100 }));
    });
  const tracker = new UploadTracker({ uploader });
  const noop = () => {};
  const upload = { files: [], tracker, cancel: noop, pause: noop, resume: noop, retry: noop, remove: tracker.remove } as unknown as UseS3Upload;
  return { tracker, upload, send: (name: string, bytes: number) => sends.get(name)!(bytes) };
}
const file = (name: string) => new File(['x'.repeat(100)], name);
/**
 * Longer than the tracker's notification: a frame (or its 100 ms timer where frames do not come), after the
 * pause a slow listener earned (19 times its last call, at most 1 s; jsdom's first render is slow).
 */
const notified = () => new Promise((resolve) => setTimeout(resolve, 1_200));

describe('UploadList', () => {
  it('renders a row again only when its own file changes, and the list only when a file is added or removed', async () => {
    const renders: string[] = [];
    // Stable, as the props say: `details` is called once per row render.
    const details = (tracked: TrackedFile) => {
      renders.push(tracked.file.name);
      return null;
    };
    const { tracker, upload, send } = trackerWithStandInUploader();
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () => root.render(<UploadList upload={upload} details={details} />));
    expect(container.querySelector('[data-upbeam="list"]')).toBeNull();
    const [a] = tracker.add([file('a.bin'), file('b.bin')]);
    await act(notified);
    expect(renders.filter((name) => name === 'a.bin').length).toBeGreaterThan(0);
    renders.length = 0;
    await act(async () => {
      send('b.bin', 60);
      await notified();
    });
    expect(renders).toEqual(['b.bin']);
    const rows = container.querySelectorAll('[data-upbeam="row"]');
    expect(Array.from(rows, (row) => row.getAttribute('data-progress'))).toEqual(['0', '60']);
    expect(rows[0]!.querySelector('[data-action="cancel"]')!.getAttribute('aria-label')).toBe('Cancel a.bin');
    renders.length = 0;
    await act(async () => {
      tracker.remove(a!.id);
      await notified();
    });
    expect(renders).toEqual([]);
    expect(Array.from(container.querySelectorAll('[data-upbeam="row"] [title]'), (name) => name.textContent)).toEqual(['b.bin']);
    act(() => root.unmount());
  });

  it('given 500 files at once, draws no more than a view of rows while the virtualized rows load, never the first 100', async () => {
    const rendered = new Set<string>();
    const details = (tracked: TrackedFile) => {
      rendered.add(tracked.file.name);
      return null;
    };
    const { tracker, upload } = trackerWithStandInUploader();
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () => root.render(<UploadList upload={upload} details={details} />));
    tracker.add(Array.from({ length: 500 }, (_, index) => file(`file-${index}.bin`)));
    await act(notified);
    expect(rendered.has('file-0.bin')).toBe(true);
    // The stand-in rows (the first 20), then the virtualized ones (jsdom lays out nothing: the first few).
    expect([...rendered].filter((name) => Number(/\d+/.exec(name)![0]) >= 20)).toEqual([]);
    act(() => root.unmount());
  });

  it('unstyled: no stylesheet class, the data-upbeam parts and the classNames given', async () => {
    const { tracker, upload } = trackerWithStandInUploader();
    tracker.add([file('a.bin')]);
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () => root.render(<UploadList upload={upload} unstyled classNames={{ row: 'my-row' }} theme="dark" />));
    const list = container.querySelector('[data-upbeam="list"]')!;
    expect(list.getAttribute('data-theme')).toBe('dark');
    expect(container.querySelector('[class*="upbeam"]')).toBeNull();
    expect(container.querySelector('[data-upbeam="row"]')!.className).toBe('my-row');
    act(() => root.unmount());
  });

  it('marks each row with the name shown, and a file kept with persist as restored with how it is kept', async () => {
    const container = document.createElement('div');
    const root = createRoot(container);
    // A restored file is made by the tracker only after a reload (persist.e2e.test.ts): the row is given one here.
    const noop = () => {};
    const actions = { cancel: noop, pause: noop, resume: noop, retry: noop, remove: noop };
    const row = (tracked: TrackedFile) => <UploadRow file={tracked} actions={actions} labels={DEFAULT_LABELS} appearance={{}} locale={undefined} />;
    const restored: TrackedFile = { id: 'r', file: file('kept.bin'), path: 'trip/kept.bin', progress: 0, uploaded: 0, size: 100, multipart: false, status: 'queued', restored: true, persistence: 'kept' };
    const fresh: TrackedFile = { id: 'f', file: file('fresh.bin'), progress: 0, uploaded: 0, size: 100, multipart: false, status: 'queued' };
    await act(async () => root.render(<ul>{row(restored)}{row(fresh)}</ul>));
    const rows = Array.from(container.querySelectorAll('[data-upbeam="row"]'), (element) => [
      element.getAttribute('data-name'),
      element.getAttribute('data-restored'),
      element.getAttribute('data-persistence'),
    ]);
    expect(rows).toEqual([
      ['trip/kept.bin', 'true', 'kept'],
      ['fresh.bin', null, null],
    ]);
    act(() => root.unmount());
  });
});
