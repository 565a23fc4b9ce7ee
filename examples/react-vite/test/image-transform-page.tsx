import { resizeImage, type ImageType } from '@upbeam/upload-client/image';
import { UploadDropzone } from '@upbeam/upload-react/components';
import { createRoot } from 'react-dom/client';

/**
 * The page of image-transform.e2e.test.ts: a drop zone of the route `?route=` whose uploads go through
 * `resizeImage` (640 x 480 at most). `?worker=off` removes `Worker` (the transform then runs on the page's thread,
 * on an `OffscreenCanvas`), `?canvas=dom` also `OffscreenCanvas` (a `<canvas>`). What happens is logged on
 * `window.imageTransform`. `?type=` is the type asked of `resizeImage`; `?persist=1` keeps the queue for after a reload.
 */
const params = new URLSearchParams(location.search);
if (params.get('worker') === 'off') Reflect.deleteProperty(window, 'Worker');
if (params.get('canvas') === 'dom') Reflect.deleteProperty(window, 'OffscreenCanvas');

export interface ImageTransformLog {
  /** Images decoded on the page's own thread (`createImageBitmap` of the window): 0 while the worker does them. */
  pageDecodes: number;
  stored: string[];
  failed: { message: string; status?: number; code?: string }[];
  rejected: string[];
}

declare global {
  interface Window {
    imageTransform: ImageTransformLog;
  }
}

const log: ImageTransformLog = { pageDecodes: 0, stored: [], failed: [], rejected: [] };
window.imageTransform = log;
const decode = window.createImageBitmap.bind(window);
window.createImageBitmap = ((...args: Parameters<typeof decode>) => {
  log.pageDecodes += 1;
  return decode(...args);
}) as typeof decode;
const type = (params.get('type') ?? undefined) as ImageType | undefined;
const transform = resizeImage({ maxWidth: 640, maxHeight: 480, ...(type ? { type } : {}) });

createRoot(document.getElementById('root')!).render(
  <UploadDropzone
    route={params.get('route') ?? 'photos'}
    options={{ transform, persist: params.get('persist') === '1' }}
    onUploadComplete={(result) => log.stored.push(result.key)}
    onError={(error) => {
      const { message, status, code } = error as { message: string; status?: number; code?: string };
      log.failed.push({ message, status, code });
    }}
    onDrop={(_, rejected) => log.rejected.push(...rejected.map((rejection) => rejection.code))}
  />,
);
