/**
 * One image file to a small bitmap: its header read for its size (`image-size.ts`), then one
 * `createImageBitmap` asked for the size wanted (`resizeWidth`/`resizeHeight`), so that the engine may decode
 * at a reduced scale where it can (see docs/guide/previews.md for what each engine does). Runs in the preview
 * worker, or on the page where the worker cannot start. Rejects where the engine cannot decode the file.
 */
import { HEADER_BYTES, imageSize, type ImageSize } from './image-size';

/**
 * The size of a bitmap whose shorter side is `size` pixels (its proportions kept), never larger than the
 * image itself; without the image's size (a format whose header is not read), only the width is asked.
 */
export function fitted(image: ImageSize | undefined, size: number): { resizeWidth: number; resizeHeight?: number } | undefined {
  if (!image) return { resizeWidth: size };
  const scale = size / Math.min(image.width, image.height);
  if (!(scale < 1)) return undefined;
  return { resizeWidth: Math.max(1, Math.round(image.width * scale)), resizeHeight: Math.max(1, Math.round(image.height * scale)) };
}

export async function decodeImage(file: Blob, size: number): Promise<ImageBitmap> {
  const resize = fitted(imageSize(await file.slice(0, HEADER_BYTES).arrayBuffer()), size);
  return createImageBitmap(file, { ...resize, resizeQuality: 'medium', imageOrientation: 'from-image' });
}
