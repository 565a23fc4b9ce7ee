// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as hook from '../use-s3-upload';
import type { Uploader } from '@upbeam/upload-client';
import type { UploadResult } from '@upbeam/upload-protocol';
import { UploadDropzone } from './upload-dropzone';
import { UploadSource, type UploadSourceProps, type WithUpload } from './upload-source';

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

  it('keeps no queue of its own: it makes no tracker, so none gets `persist` (it would restore the kept files unseen)', async () => {
    function Owner() {
      const upload = hook.useS3Upload({ persist: true });
      return <UploadDropzone options={{ persist: true }} upload={upload} />;
    }
    await renderDropzone(<Owner />);
    const [owner, ...components] = seen;
    expect(owner?.persist).toBe(true);
    // No hook of its own at all (before: one that stayed empty, without `persist`).
    expect(components).toEqual([]);
  });

  it('without `upload`, its own hook keeps the queue as asked', async () => {
    await renderDropzone(<UploadDropzone options={{ persist: true }} />);
    expect(seen.length).toBeGreaterThan(0);
    for (const options of seen) expect(options.persist).toBe(true);
  });
});

describe("a component's outcome callbacks", () => {
  /** An uploader whose calls the test ends: `finish` stores the file, `fail` fails it. */
  function standInUploader() {
    const calls: { finish: () => void; fail: (error: unknown) => void }[] = [];
    const uploader: Uploader = (file) =>
      new Promise<UploadResult>((resolve, reject) => {
        calls.push({ finish: () => resolve({ url: `http://127.0.0.1/b/${file.name}`, bucket: 'b', key: file.name }), fail: reject });
      });
    return { uploader, calls };
  }
  const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

  it('a retry that ends within one render still calls onUploadComplete (error, then done, no render between)', async () => {
    const onUploadComplete = vi.fn();
    const onError = vi.fn();
    const { uploader, calls } = standInUploader();
    let upload: WithUpload<UploadSourceProps>['upload'] | undefined;
    function Probe(props: WithUpload<UploadSourceProps>) {
      upload = props.upload;
      return null;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(<UploadSource props={{ options: { uploader }, onUploadComplete, onError }} view={Probe} />));
    const [file] = upload!.addFiles([new File(['x'], 'a.bin')]);
    calls[0]!.fail(new Error('Storage refused the upload (500 InternalError).'));
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    // Failed again after a retry: a new error, reported again.
    upload!.retry(file!.id);
    calls[1]!.fail(new Error('again'));
    await settle();
    expect(onError).toHaveBeenCalledTimes(2);
    // Retried and stored before any render or frame.
    upload!.retry(file!.id);
    calls[2]!.finish();
    await settle();
    expect(onUploadComplete).toHaveBeenCalledTimes(1);
    const stored = upload!.tracker.getFile(file!.id)!;
    expect(onUploadComplete).toHaveBeenCalledWith(stored.result, stored);
    expect(stored.result).toEqual({ url: 'http://127.0.0.1/b/a.bin', bucket: 'b', key: 'a.bin' });
    expect(onError).toHaveBeenCalledTimes(2);
    await act(async () => root.unmount());
  });
});
