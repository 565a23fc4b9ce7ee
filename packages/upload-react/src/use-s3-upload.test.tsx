// @vitest-environment jsdom
import type { UploadResult } from '@upbeam/upload-protocol';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useS3Upload, type UseS3Upload } from './use-s3-upload';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A stand-in for `uploadFile` (jsdom has no network to storage; the browser suites upload for real). */
function standInUploader() {
  const finishes: (() => void)[] = [];
  const uploader = (file: File) =>
    new Promise<UploadResult>((resolve) => {
      finishes.push(() => resolve({ url: `http://127.0.0.1/b/${file.name}`, bucket: 'b', key: file.name }));
    });
  return { uploader, finishes };
}

/**
 * Runs `check` once the tracker's batched notification (at most once per animation frame) has rendered:
 * time passes inside act(), until `check` holds.
 */
function whenRendered(check: () => void): Promise<void> {
  return vi.waitFor(
    async () => {
      await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
      check();
    },
    { timeout: 5_000 },
  );
}

let unmount: (() => void) | undefined;
afterEach(() => act(() => unmount?.()));

function renderHook(options: Parameters<typeof useS3Upload>[0]) {
  const seen: UseS3Upload[] = [];
  function Probe() {
    const upload = useS3Upload(options);
    seen.push(upload);
    return <upload.FileInput multiple data-testid="input" />;
  }
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() => root.render(<Probe />));
  unmount = () => root.unmount();
  return { latest: () => seen.at(-1)!, renders: () => seen, container };
}

describe('useS3Upload', () => {
  it('renders a multiple file input and follows the queue: files, summary, retry-less success', async () => {
    const { uploader, finishes } = standInUploader();
    const { latest, container } = renderHook({ uploader, concurrency: 2 });
    expect(container.querySelector('input')?.multiple).toBe(true);
    act(() => {
      latest().addFiles([new File(['a'], 'a'), new File(['bb'], 'b'), new File(['ccc'], 'c')]);
    });
    await whenRendered(() => {
      expect(latest().files.map((f) => f.status)).toEqual(['uploading', 'uploading', 'queued']);
      expect(latest().summary).toMatchObject({ size: 6, uploaded: 0, count: { uploading: 2, queued: 1 } });
    });
    for (let i = 0; i < 3; i += 1) {
      await act(async () => {
        finishes[i]!();
      });
    }
    await whenRendered(() => {
      expect(latest().files.map((f) => f.status)).toEqual(['done', 'done', 'done']);
      expect(latest().summary).toMatchObject({ progress: 100, count: { done: 3 } });
    });
  });

  it('removes a file and resets the list', async () => {
    const { uploader } = standInUploader();
    const { latest } = renderHook({ uploader });
    let id = '';
    act(() => {
      id = latest().addFiles([new File(['a'], 'a'), new File(['b'], 'b')])[0]!.id;
    });
    act(() => latest().remove(id));
    await whenRendered(() => expect(latest().files.map((f) => f.file.name)).toEqual(['b']));
    act(() => latest().resetFiles());
    await whenRendered(() => expect(latest().files).toEqual([]));
  });

  it('a batch of 450 files joins `files` at most 200 more a render, in order, while `summary` counts them all', async () => {
    const { uploader } = standInUploader();
    const { latest, renders } = renderHook({ uploader });
    act(() => {
      latest().addFiles(Array.from({ length: 450 }, (_, index) => new File(['x'], `f${index}`)));
    });
    await whenRendered(() => expect(latest().files.length).toBe(450));
    expect(latest().summary.count.queued + latest().summary.count.uploading).toBe(450);
    const lengths = renders().map((upload) => upload.files.length);
    expect(lengths).toContain(200);
    for (let index = 1; index < lengths.length; index += 1) expect(lengths[index]! - lengths[index - 1]!).toBeLessThanOrEqual(200);
    expect(latest().files.map((f) => f.file.name).slice(198, 202)).toEqual(['f198', 'f199', 'f200', 'f201']);
  });
});
