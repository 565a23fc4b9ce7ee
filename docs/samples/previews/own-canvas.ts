// own-canvas.ts: the bitmap itself, drawn by the app (here into a 2D canvas with a rounded clip)
import { createPreview } from '@upbeam/upload-client/preview';

export async function roundThumbnail(file: File, canvas: HTMLCanvasElement, signal: AbortSignal): Promise<() => void> {
  const size = 48 * devicePixelRatio;
  const preview = await createPreview(file, { size, signal }); // null: not an image or video, or not decodable here
  if (!preview) return () => {};
  canvas.width = canvas.height = size;
  const context = canvas.getContext('2d')!;
  context.beginPath();
  context.arc(size / 2, size / 2, size / 2, 0, 2 * Math.PI);
  context.clip();
  // Centred and cropped to the square: the shorter side is already `size`.
  context.drawImage(preview.bitmap, (size - preview.width) / 2, (size - preview.height) / 2);
  // The bitmap is shared: never close it; release the preview when the row goes.
  return preview.release;
}
