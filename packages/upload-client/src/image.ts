/**
 * @module
 * `@upbeam/upload-client/image`: `resizeImage`, a ready `transform` (see `UploadOptions.transform`) that sends a
 * photo resized, upright and without its location. The factory is tiny: the decoder, encoder and worker load
 * with `import()` with the first image, so a page that never sends one downloads none of it.
 */
import type { FileTransform } from './types';
import type { ResizeImageOptions } from './image/resize-options';

export type { ImageType, ResizeImageOptions } from './image/resize-options';

/**
 * A transform (`UploadOptions.transform`) that resizes a picked image to at most `maxWidth` x `maxHeight` pixels
 * (never larger), upright (its EXIF orientation applied to the pixels), and encodes it again as JPEG, WebP, AVIF
 * or PNG at `quality`, which drops all its metadata: the GPS position of a phone photo never leaves the browser
 * (unless `keepMetadata` and it needs no change). It runs in a module Worker on an `OffscreenCanvas`, on the
 * page's thread where a worker cannot (see the docs' "Images" guide), at most two images at once.
 *
 * Sent unchanged: a file that is not an image, a GIF (its animation would be lost), an SVG, and an image the
 * browser cannot decode (HEIC outside Safari). Where the browser cannot encode `type` (AVIF in most) the image is
 * sent as JPEG, said once by `console.warn`. A convenience, not a security boundary: the server still checks
 * what arrives (its `maxFileSize` judges the file sent).
 *
 * @param options - `{ maxWidth?, maxHeight?, type?, quality? = 0.85, keepMetadata? = false }` (pixels; 0 to 1).
 * @returns The transform. The file it makes has the picked file's name, with the extension of the type sent
 *   (`IMG_1234.HEIC` -> `IMG_1234.jpg`), and its `lastModified`.
 * @throws (the transform) `AbortError` when the upload is cancelled; the error of an image the browser decoded
 *   but could not encode (rare), which fails the upload.
 *
 * @example
 * import { resizeImage } from '@upbeam/upload-client/image';
 *
 * const { addFiles } = useS3Upload({ route: 'photos', transform: resizeImage({ maxWidth: 2048, maxHeight: 2048, type: 'image/webp' }) });
 */
export function resizeImage(options: ResizeImageOptions = {}): FileTransform {
  return (file, { signal }) =>
    // GIF and SVG are sent as they are (an animation, a drawing), like every file that is not an image.
    !file.type.startsWith('image/') || /gif|svg/.test(file.type)
      ? file
      : import('./image/resize-image').then(({ resizeImageFile }) => resizeImageFile(file, options, signal));
}
