import { useEffect, useRef } from 'react';

/** `@upbeam/upload-client/preview`, loaded with the first row of an image or a video (a chunk of its own). */
let previews: Promise<typeof import('@upbeam/upload-client/preview')> | undefined;

/** Lets go of every preview no row shows (the list was emptied): no bitmap outlives its files. */
export const clearThumbnails = () => void previews?.then((loaded) => loaded.clearPreviews());

/**
 * A small preview of an image or of a video's first frame (`drawPreview`: decoded at the size shown, 40 CSS
 * pixels, off the main thread where the browser allows), drawn into a canvas (`data-preview="drawn"` once
 * drawn); a blank square until then, for other files, and where the browser decodes none. Decorative: the
 * file's name is written beside it.
 */
export function Thumbnail({ file, className }: { file: File; className?: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let undraw: (() => void) | undefined;
    let gone = false;
    if (canvas.current)
      (previews ??= import('@upbeam/upload-client/preview'))
        .then((loaded) => gone || (undraw = loaded.drawPreview(canvas.current!, file, { size: 40 * devicePixelRatio })))
        .catch(() => {});
    return () => {
      gone = true;
      undraw?.();
    };
  }, [file]);
  return /^(image|video)\//.test(file.type) ? (
    <canvas ref={canvas} className={className} data-upbeam="thumbnail" aria-hidden="true" width={0} height={0} />
  ) : (
    <span className={className} data-upbeam="thumbnail" aria-hidden="true" />
  );
}
