import { createAbortError, onAbort } from './abort';
import type { FileTransform } from './types';

/**
 * The file to send: `transform(file)` (`UploadOptions.transform`), once, before the preparation. The one place a
 * transform runs: `uploadFile` calls it when it is given a transform, the tracker before its uploader (which it
 * then gives the result with `transform` removed, so that nothing transforms twice).
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
