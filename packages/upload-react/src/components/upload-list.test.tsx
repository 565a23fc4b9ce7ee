// @vitest-environment jsdom
import type { TrackedFile } from '@upbeam/upload-client';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { UseS3Upload } from '../use-s3-upload';
import { UploadList } from './upload-list';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Rendering only (jsdom; the browser suite components.e2e.test.ts uploads for real): `upload` is a stand-in
// holding snapshots of files, as `useS3Upload()` returns them.
const file = (id: string, progress: number): TrackedFile => ({
  id,
  file: new File(['x'.repeat(100)], `${id}.bin`),
  progress,
  uploaded: progress,
  size: 100,
  multipart: false,
  status: 'uploading',
});
const noop = () => {};
const standIn = (files: TrackedFile[]) => ({ files, cancel: noop, pause: noop, resume: noop, retry: noop, remove: noop }) as unknown as UseS3Upload;

describe('UploadList', () => {
  it('renders a row again only when its own file snapshot changes (rows memoized by identity)', async () => {
    const renders: string[] = [];
    // Stable, as the props say: `details` is called once per row render.
    const details = (tracked: TrackedFile) => {
      renders.push(tracked.id);
      return null;
    };
    const container = document.createElement('div');
    const root = createRoot(container);
    const a = file('a', 10);
    await act(async () => root.render(<UploadList upload={standIn([a, file('b', 10)])} details={details} />));
    expect(renders.sort()).toEqual(['a', 'b']);
    renders.length = 0;
    // `a` unchanged (same object), `b` moved on.
    await act(async () => root.render(<UploadList upload={standIn([a, file('b', 60)])} details={details} />));
    expect(renders).toEqual(['b']);
    const rows = container.querySelectorAll('[data-upbeam="row"]');
    expect(Array.from(rows, (row) => row.getAttribute('data-progress'))).toEqual(['10', '60']);
    expect(rows[0]!.querySelector('[data-action="cancel"]')!.getAttribute('aria-label')).toBe('Cancel a.bin');
    act(() => root.unmount());
  });

  it('unstyled: no stylesheet class, the data-upbeam parts and the classNames given', async () => {
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () => root.render(<UploadList upload={standIn([file('a', 10)])} unstyled classNames={{ row: 'my-row' }} theme="dark" />));
    const list = container.querySelector('[data-upbeam="list"]')!;
    expect(list.getAttribute('data-theme')).toBe('dark');
    expect(container.querySelector('[class*="upbeam"]')).toBeNull();
    expect(container.querySelector('[data-upbeam="row"]')!.className).toBe('my-row');
    act(() => root.unmount());
  });

  it('marks each row with the name shown, and a file kept with persist as restored with how it is kept', async () => {
    const container = document.createElement('div');
    const root = createRoot(container);
    const restored: TrackedFile = { ...file('kept', 0), status: 'queued', path: 'trip/kept.bin', restored: true, persistence: 'kept' };
    await act(async () => root.render(<UploadList upload={standIn([restored, file('fresh', 10)])} />));
    const rows = Array.from(container.querySelectorAll('[data-upbeam="row"]'), (row) => [
      row.getAttribute('data-name'),
      row.getAttribute('data-restored'),
      row.getAttribute('data-persistence'),
    ]);
    expect(rows).toEqual([
      ['trip/kept.bin', 'true', 'kept'],
      ['fresh.bin', null, null],
    ]);
    act(() => root.unmount());
  });
});
