/**
 * The page's side of `resizeImage`, loaded with `import()` by its first image: one module Worker per image
 * (`image-worker.ts`), at most {@link AT_ONCE} at once, ended after its answer or as soon as the upload is
 * cancelled. Where the worker cannot start or has no `OffscreenCanvas` (a CSP without `worker-src 'self'`, a
 * bundler that left `dist/image-worker.js` behind, Safari before 16.4), the image is done on the page's own
 * thread (`encode-image.ts`: an `OffscreenCanvas`, else a `<canvas>`).
 */
import { createAbortError, onAbort } from '../abort';
import type { ImageAnswer, ImageRequest } from '../image-worker';
import { encodeImage } from './encode-image';
import type { ImageOutcome, ResizeImageOptions } from './resize-options';

/**
 * Images decoded at once: a 24-megapixel photo takes ~96 MB decoded, and the tracker uploads 3 files at once
 * by default; two keep a batch of photos within ~200 MB while one encodes as the other decodes.
 */
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** Whether the worker could not run here (then never tried again on this page). */
let noWorker = false;
/** Types already said to fall back to JPEG (said once each). */
const warned = new Set<string>();

/** The outcome from a fresh worker; `undefined` where it cannot start or do it. */
function inWorker(file: File, options: ResizeImageOptions, signal: AbortSignal): Promise<ImageOutcome | undefined> {
  if (noWorker) return Promise.resolve(undefined);
  let worker: Worker;
  try {
    // Written as bundlers recognize it (Vite, webpack 5, Next.js, Parcel): they then emit the worker's file.
    worker = new Worker(new URL('./image-worker.js', import.meta.url), { type: 'module' });
  } catch {
    noWorker = true;
    return Promise.resolve(undefined);
  }
  return new Promise<ImageOutcome | undefined>((resolve, reject) => {
    const stop = onAbort(signal, () => {
      worker.terminate();
      reject(createAbortError());
    });
    const end = (outcome: ImageOutcome | undefined) => {
      stop();
      worker.terminate();
      resolve(outcome);
    };
    worker.onmessage = ({ data }: MessageEvent<ImageAnswer>) => {
      if ('outcome' in data) return end(data.outcome);
      if ('error' in data) {
        stop();
        worker.terminate();
        return reject(new DOMException(data.error.message, data.error.name));
      }
      noWorker = true;
      end(undefined);
    };
    // Its script could not be fetched or run: this image and the next on the page.
    worker.onerror = (event) => {
      event.preventDefault();
      noWorker = true;
      end(undefined);
    };
    const request: ImageRequest = { file, options };
    worker.postMessage(request);
  });
}

/**
 * `file` resized and encoded again by `options`, as a `File` of the same name (its extension that of the type sent)
 * and date; `file` itself when it needs nothing or the browser cannot decode it.
 * @throws `AbortError` when `signal` aborts; the encoder's error (rare: the canvas could not be encoded).
 */
export async function resizeImageFile(file: File, options: ResizeImageOptions, signal: AbortSignal): Promise<File> {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running += 1;
  try {
    if (signal.aborted) throw createAbortError();
    const outcome = (await inWorker(file, options, signal)) ?? (await encodeImage(file, options));
    if (signal.aborted) throw createAbortError();
    if ('unchanged' in outcome) return file;
    if (outcome.fellBack && !warned.has(options.type!)) {
      warned.add(options.type!);
      console.warn(`[upbeam] resizeImage: this browser cannot encode ${options.type}; images are sent as image/jpeg.`);
    }
    const extension = outcome.type === 'image/jpeg' ? 'jpg' : outcome.type.slice(6);
    const name = file.name.replace(/(\.[^./]*)?$/, `.${extension}`);
    return new File([outcome.blob], name, { type: outcome.type, lastModified: file.lastModified });
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}
