/**
 * The preview worker: a module Worker that decodes the image files the page posts it into small bitmaps
 * (`preview/decode-image.ts`) and transfers each back, so that reading and decoding a photo never runs on the
 * page's main thread. Started by `preview/image-preview.ts`; built by tsup as its own file,
 * `dist/preview-worker.js`, beside the chunk that starts it. It imports nothing dynamically (bundlers build a
 * worker as one file).
 */
import { decodeImage } from './preview/decode-image';

/** What the page asks: `file` decoded to a bitmap whose shorter side is `size` pixels, answered under `id`. */
export interface PreviewRequest {
  id: number;
  file: Blob;
  size: number;
}

/** The worker's answer: the bitmap (transferred), or `failed` where this engine cannot decode the file. */
export type PreviewAnswer = { id: number; bitmap: ImageBitmap } | { id: number; failed: string };

/** The worker's global scope, the little of it used here (the DOM library types `self` as a window). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<PreviewRequest>) => void) | null;
  postMessage(message: PreviewAnswer, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = ({ data: { id, file, size } }) => {
  decodeImage(file, size).then(
    (bitmap) => scope.postMessage({ id, bitmap }, [bitmap]),
    (error: unknown) => scope.postMessage({ id, failed: error instanceof Error ? error.name : 'Error' }, []),
  );
};
