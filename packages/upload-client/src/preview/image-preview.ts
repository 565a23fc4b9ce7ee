/**
 * The page's side of the preview worker (`preview-worker.ts`): one module Worker, started with the first image
 * and reused, that decodes each image posted to it into a small bitmap. Where it cannot start or answer (no
 * `Worker`: Node, a server render; a Content-Security-Policy without `worker-src 'self'`; a bundler that left
 * `dist/preview-worker.js` behind), that image and every one after are decoded on the page's thread by the same
 * code: `createImageBitmap` is asynchronous there too, but in some engines its decode then runs on the main thread.
 */
import type { PreviewAnswer, PreviewRequest } from '../preview-worker';
import { decodeImage } from './decode-image';

interface Pending {
  request: PreviewRequest;
  resolve: (bitmap: ImageBitmap) => void;
  reject: (error: unknown) => void;
}

/** The worker once started; `null` once it could not start or failed (then never tried again on this page). */
let worker: Worker | null | undefined;
const pending = new Map<number, Pending>();
let lastId = 0;

/** Gives up the worker: every image it holds, and every later one, is decoded on the page. */
function abandon(): void {
  worker?.terminate();
  worker = null;
  const stranded = [...pending.values()];
  pending.clear();
  for (const { request, resolve, reject } of stranded) decodeImage(request.file, request.size).then(resolve, reject);
}

function answered({ data }: MessageEvent<PreviewAnswer>): void {
  const entry = pending.get(data.id);
  if (!entry) return;
  pending.delete(data.id);
  if ('bitmap' in data) entry.resolve(data.bitmap);
  else entry.reject(new DOMException(`This browser cannot decode the image (${data.failed})`, 'EncodingError'));
}

function previewWorker(): Worker | undefined {
  if (worker !== undefined) return worker ?? undefined;
  try {
    // Written as bundlers recognize it (Vite, webpack 5, Next.js, Parcel): they then emit the worker's file.
    // The CJS build has no `import.meta.url`: the URL throws there, as `Worker` is missing in Node.
    worker = new Worker(new URL('./preview-worker.js', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
    return undefined;
  }
  worker.onmessage = answered;
  worker.onerror = (event) => {
    event.preventDefault();
    abandon();
  };
  worker.onmessageerror = abandon;
  return worker;
}

/** `file` decoded to a bitmap whose shorter side is `size` pixels (at most the image's own); rejects if undecodable. */
export function imageBitmapOf(file: Blob, size: number): Promise<ImageBitmap> {
  const decoder = previewWorker();
  if (!decoder) return decodeImage(file, size);
  return new Promise((resolve, reject) => {
    const request: PreviewRequest = { id: ++lastId, file, size };
    pending.set(request.id, { request, resolve, reject });
    decoder.postMessage(request);
  });
}
