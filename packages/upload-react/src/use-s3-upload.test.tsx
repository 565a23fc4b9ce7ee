// @vitest-environment jsdom
import type { UploadResult } from '@upbeam/upload-protocol';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useS3Upload, type UseS3Upload } from './use-s3-upload';
import { useTrackedIds } from './use-tracked-ids';
import { FIRST_STEP, MAX_STEP } from './use-growing-list';

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

/**
 * A list's lengths render by render: the first growth step's rows first, then steps of at most double the last
 * and at most the largest step (the last one, the rest of the batch, may be smaller).
 */
function expectSteps(lengths: number[]) {
  const steps = lengths.map((length, index) => length - (lengths[index - 1] ?? 0)).filter((step) => step > 0);
  expect(steps[0]).toBe(FIRST_STEP);
  for (let index = 1; index < steps.length; index += 1) {
    expect(steps[index]!).toBeLessThanOrEqual(Math.min(2 * steps[index - 1]!, MAX_STEP));
  }
  expect(steps.length).toBeGreaterThan(1);
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

  it('a batch of 450 files joins `files` 100 first, then steps that at most double, in order, while `summary` counts them all', async () => {
    const { uploader } = standInUploader();
    const { latest, renders } = renderHook({ uploader });
    act(() => {
      latest().addFiles(Array.from({ length: 450 }, (_, index) => new File(['x'], `f${index}`)));
    });
    await whenRendered(() => expect(latest().files.length).toBe(450));
    expect(latest().summary.count.queued + latest().summary.count.uploading).toBe(450);
    expectSteps(renders().map((upload) => upload.files.length));
    expect(latest().files.map((f) => f.file.name).slice(198, 202)).toEqual(['f198', 'f199', 'f200', 'f201']);
  });

  it('useTrackedIds: a batch of 450 files reaches the ids in growth steps, in order; a removal shows at once', async () => {
    const { uploader } = standInUploader();
    const seen: (readonly string[])[] = [];
    let upload: UseS3Upload | undefined;
    function Ids() {
      upload = useS3Upload({ uploader });
      seen.push(useTrackedIds(upload.tracker));
      return null;
    }
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<Ids />));
    unmount = () => root.unmount();
    let added: string[] = [];
    act(() => {
      added = upload!.addFiles(Array.from({ length: 450 }, (_, index) => new File(['x'], `f${index}`))).map((file) => file.id);
    });
    await whenRendered(() => expect(seen.at(-1)).toEqual(added));
    expectSteps(seen.map((ids) => ids.length));
    act(() => upload!.remove(added[0]!));
    await whenRendered(() => expect(seen.at(-1)).toEqual(added.slice(1)));
  });
});
