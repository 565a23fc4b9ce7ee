/**
 * The options of `resizeImage` (`@upbeam/upload-client/image`), apart from it so that the factory, its lazily
 * loaded chunk and its worker share them without importing one another.
 */

/** The types `resizeImage` encodes to. */
export type ImageType = 'image/jpeg' | 'image/webp' | 'image/avif' | 'image/png';

/** Options of `resizeImage`. */
export interface ResizeImageOptions {
  /** Widest image sent, in CSS pixels of the upright image (EXIF orientation applied). Never upscaled. Unset: no limit. */
  maxWidth?: number;
  /** Tallest image sent, in pixels of the upright image. Never upscaled. Unset: no limit. */
  maxHeight?: number;
  /**
   * The type sent. Where the browser cannot encode it (AVIF in most browsers, WebP in Safari before 17; see the
   * docs' "Images" guide) the image is sent as JPEG and `console.warn` says so once.
   * @default the picked file's type when it is JPEG, WebP, AVIF or PNG, else `'image/jpeg'`
   */
  type?: ImageType;
  /** Encoder quality of JPEG, WebP and AVIF, 0 to 1 (PNG is lossless and ignores it). @default 0.85 */
  quality?: number;
  /**
   * Send a picked image unchanged (with its EXIF: camera, date, GPS position) when it needs no resize and is
   * already of the `type` asked. A resized or converted image never keeps metadata (re-encoding drops all of it).
   * @default false (every decodable image is encoded again, so a photo's GPS position never leaves the browser)
   */
  keepMetadata?: boolean;
}

/** What the encoder made of one image (in the worker or on the page). */
export type ImageOutcome =
  /** The image encoded: `type` may be JPEG where the browser could not encode the type asked (`fellBack`). */
  | { blob: Blob; type: ImageType; fellBack: boolean; width: number; height: number }
  /** Sent as it is: it needs nothing (`keep`), or the browser cannot decode it (`undecodable`: HEIC outside Safari). */
  | { unchanged: 'keep' | 'undecodable' };
