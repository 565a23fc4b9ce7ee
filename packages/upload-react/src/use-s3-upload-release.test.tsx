// @vitest-environment jsdom
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it, vi } from 'vitest';
import { useS3Upload, type UseS3Upload } from './use-s3-upload';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// V8's collector, as `node --expose-gc` gives it, in this worker.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A child given the whole hook as props (as `<Uploader upload={...}>` is). One text, not an element a file: React's
 * development build keeps the call stack of each element it deletes (`_debugStack`), the file's among them, on the
 * parent's fiber until it renders twice more; its production build does not.
 */
function Names({ upload }: { upload: UseS3Upload }): ReactNode {
  return <p>{upload.files.map((file) => file.file.name).join(' ')}</p>;
}

it('after resetFiles, nothing React keeps holds the previous files (their File objects are collected)', async () => {
  let upload: UseS3Upload | undefined;
  function Page() {
    upload = useS3Upload({ uploader: async (file: File) => ({ url: `http://127.0.0.1/b/${file.name}`, bucket: 'b', key: file.name }) });
    return <Names upload={upload} />;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<Page />));
  // Made here, so that the test keeps only weak references to them.
  const refs = (() => {
    const files = Array.from({ length: 20 }, (_, index) => new File(['x'], `f${index}`));
    act(() => void upload!.addFiles(files));
    return files.map((file) => new WeakRef(file));
  })();
  await vi.waitFor(() => expect(upload!.files.filter((file) => file.status === 'done')).toHaveLength(20), { timeout: 5_000 });
  act(() => upload!.resetFiles());
  await vi.waitFor(() => expect(upload!.files).toHaveLength(0), { timeout: 5_000 });
  // Effects and the renders they ask for, then two collections (a WeakRef is kept until its job ends).
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  for (let round = 0; round < 2; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  act(() => root.unmount());
});
