// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as hook from '../use-s3-upload';
import type { TrackedFile } from '@upbeam/upload-client';
import { UploadDropzone } from './upload-dropzone';
import { useOutcomes } from './upload-source';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The options a component hands its own `useS3Upload`: a spy that records them, then runs the real hook
// without `persist` (jsdom has no IndexedDB, and the lazy persistence chunk would load after the test ended).
// The restore itself is checked in the browser suite, persist.e2e.test.ts "two tabs".
const seen: hook.UseS3UploadOptions[] = [];
vi.mock('../use-s3-upload', async (original) => {
  const actual = await original<typeof hook>();
  return {
    ...actual,
    useS3Upload: (options: hook.UseS3UploadOptions) => {
      seen.push(options);
      return actual.useS3Upload({ ...options, persist: undefined });
    },
  };
});

async function renderDropzone(element: React.ReactElement): Promise<void> {
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(element));
  await act(async () => root.unmount());
}

describe('a component given `upload`', () => {
  afterEach(() => {
    seen.length = 0;
  });

  it('keeps no queue of its own: its own hook never gets `persist` (it would restore the kept files unseen)', async () => {
    function Owner() {
      const upload = hook.useS3Upload({ persist: true });
      return <UploadDropzone options={{ persist: true }} upload={upload} />;
    }
    await renderDropzone(<Owner />);
    const [owner, ...components] = seen;
    expect(owner?.persist).toBe(true);
    expect(components.length).toBeGreaterThan(0);
    for (const options of components) expect(options.persist).toBeUndefined();
  });

  it('without `upload`, its own hook keeps the queue as asked', async () => {
    await renderDropzone(<UploadDropzone options={{ persist: true }} />);
    expect(seen.length).toBeGreaterThan(0);
    for (const options of seen) expect(options.persist).toBe(true);
  });
});

describe("a component's outcome callbacks", () => {
  const file = { id: 'a', file: new File(['x'], 'a.bin'), size: 1, progress: 0, uploaded: 0 } as unknown as TrackedFile;
  const failed = { ...file, status: 'error', error: new Error('Storage refused the upload (500 InternalError).') } as TrackedFile;
  const stored = { ...file, status: 'done', progress: 100, uploaded: 1, result: { url: 'http://127.0.0.1/b/a.bin', bucket: 'b', key: 'a.bin' } } as TrackedFile;

  it('a retry that ends within one render still calls onUploadComplete (error, then done, no render between)', async () => {
    const onUploadComplete = vi.fn();
    const onError = vi.fn();
    function Probe({ files }: { files: TrackedFile[] }) {
      useOutcomes({ files }, { onUploadComplete, onError });
      return null;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(<Probe files={[failed]} />));
    await act(async () => root.render(<Probe files={[{ ...failed }]} />));
    expect(onError).toHaveBeenCalledTimes(1);
    await act(async () => root.render(<Probe files={[stored]} />));
    await act(async () => root.render(<Probe files={[{ ...stored }]} />));
    expect(onUploadComplete).toHaveBeenCalledTimes(1);
    expect(onUploadComplete).toHaveBeenCalledWith(stored.result, stored);
    // Failed again after another retry: a new error, reported again.
    await act(async () => root.render(<Probe files={[{ ...failed, error: new Error('again') }]} />));
    expect(onError).toHaveBeenCalledTimes(2);
    await act(async () => root.unmount());
  });
});
