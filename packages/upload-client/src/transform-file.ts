import { createAbortError, onAbort } from './abort';
import { goesMultipart } from './multipart-threshold';
import type { TrackedFile } from './tracked-file';
import type { FileTransform, UploadOptions } from './types';

/**
 * The file to send: `transform(file)` (`UploadOptions.transform`), once, before the preparation. The one place a
 * transform runs: `uploadFile` calls it when it is given a transform, the tracker before its uploader (which it
 * then gives the result with `transform` removed, so that nothing transforms twice). Loaded with `import()` by
 * the first upload with a transform: an app without one does not ship it.
 * @throws `AbortError` (`Upload aborted.`) as soon as `signal` aborts, even if the transform goes on (its
 *   `signal` tells it to stop); the transform's own error as it threw it.
 */
export function transformFile(file: File, transform: FileTransform, signal: AbortSignal): Promise<File> {
  return new Promise<File>((resolve, reject) => {
    const stop = onAbort(signal, () => reject(createAbortError()));
    if (signal.aborted) return;
    // A transform that throws at once fails as one that rejects.
    new Promise<File>((run) => run(transform(file, { signal }))).then(
      (result) => {
        stop();
        if (signal.aborted) reject(createAbortError());
        else resolve(result);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** `uploadFile`'s file and options once its `transform` has run: the file made, the options without `transform`. */
export async function transformed(file: File, options: UploadOptions): Promise<{ file: File; options: UploadOptions }> {
  return {
    file: await transformFile(file, options.transform!, options.signal ?? new AbortController().signal),
    options: { ...options, transform: undefined },
  };
}

/** What a tracked file shows once its transform has made `file`: that file, its size and whether it goes multipart. */
export function sentFile(file: File, options: UploadOptions): Pick<TrackedFile, 'file' | 'size' | 'multipart'> {
  return { file, size: file.size, multipart: goesMultipart(file.size, options) };
}
