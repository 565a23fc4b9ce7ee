/**
 * Decodes, resizes and encodes one image: the same code in the image worker (`image-worker.ts`, on an
 * `OffscreenCanvas`) and on the page where the worker cannot run (an `OffscreenCanvas`, else a `<canvas>`).
 */
import type { ImageOutcome, ImageType, ResizeImageOptions } from './resize-options';

const ENCODED: readonly string[] = ['image/jpeg', 'image/webp', 'image/avif', 'image/png'];

/** The type an image is sent as: `options.type`, else its own when it is one we encode, else JPEG. */
export function outputType(type: string, options: ResizeImageOptions): ImageType {
  return options.type ?? ((ENCODED.includes(type) ? type : 'image/jpeg') as ImageType);
}

/** The size an image of `width` x `height` is sent at: within `maxWidth` x `maxHeight`, its ratio kept, never larger. */
export function targetSize(width: number, height: number, { maxWidth = Infinity, maxHeight = Infinity }: ResizeImageOptions): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A canvas of `width` x `height` and how to encode it: an `OffscreenCanvas` where there is one, else a `<canvas>`. */
function canvasOf(width: number, height: number): { context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D; encode: (type: string, quality: number) => Promise<Blob> } {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    return { context: canvas.getContext('2d')!, encode: (type, quality) => canvas.convertToBlob({ type, quality }) };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return {
    context: canvas.getContext('2d')!,
    encode: (type, quality) =>
      new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The canvas could not be encoded.'))), type, quality)),
  };
}

/**
 * Decodes `file` upright (its EXIF orientation applied), and encodes it again at the size and type `options` ask.
 * An image the browser cannot decode comes back `undecodable` (sent as it is).
 */
export async function encodeImage(file: Blob, options: ResizeImageOptions): Promise<ImageOutcome> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return { unchanged: 'undecodable' };
  }
  try {
    const { width, height } = targetSize(bitmap.width, bitmap.height, options);
    let type = outputType(file.type, options);
    if (options.keepMetadata && type === file.type && width === bitmap.width && height === bitmap.height) return { unchanged: 'keep' };
    const { context, encode } = canvasOf(width, height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    // JPEG has no alpha: a transparent pixel would turn black; white is what a viewer shows behind it.
    if (type === 'image/jpeg') {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, width, height);
    }
    context.drawImage(bitmap, 0, 0, width, height);
    const quality = options.quality ?? 0.85;
    let blob = await encode(type, quality);
    // A browser that cannot encode a type answers PNG (the canvas's default) instead of failing.
    const fellBack = blob.type !== type;
    if (fellBack) {
      type = 'image/jpeg';
      context.globalCompositeOperation = 'destination-over';
      context.fillStyle = '#fff';
      context.fillRect(0, 0, width, height);
      blob = await encode(type, quality);
    }
    return { blob, type, fellBack, width, height };
  } finally {
    bitmap.close();
  }
}
