/**
 * The image worker: a module Worker that decodes, resizes and encodes the one image the page posts it
 * (`image/encode-image.ts` on an `OffscreenCanvas`) and posts back the result, so that a 24-megapixel photo
 * is decoded off the page's main thread. Started per image by `image/resize-image.ts`, which ends it after
 * its answer or when the upload is cancelled; built by tsup as its own file, `dist/image-worker.js`, beside the
 * chunk that starts it. It imports nothing dynamically (bundlers build a worker as one file).
 */
import { encodeImage } from './image/encode-image';
import type { ImageOutcome, ResizeImageOptions } from './image/resize-options';

/** What the page asks: `file` resized by `options`. */
export interface ImageRequest {
  file: Blob;
  options: ResizeImageOptions;
}

/**
 * The worker's answer: the outcome; `noCanvas` where this worker has no `OffscreenCanvas` or `createImageBitmap`
 * (the page then does it on its own thread); or the error (its name and message).
 */
export type ImageAnswer = { outcome: ImageOutcome } | { noCanvas: true } | { error: { name: string; message: string } };

/** The worker's global scope, the little of it used here (the DOM library types `self` as a window). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ImageRequest>) => void) | null;
  postMessage(message: ImageAnswer): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = ({ data: { file, options } }) => {
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') {
    scope.postMessage({ noCanvas: true });
    return;
  }
  encodeImage(file, options).then(
    (outcome) => scope.postMessage({ outcome }),
    (error: unknown) => {
      const { name = 'Error', message = String(error) } = error instanceof Error || error instanceof DOMException ? error : {};
      scope.postMessage({ error: { name, message } });
    },
  );
};
