/**
 * @module
 * `@upbeam/upload-client/preview`: small previews of picked files for a list of rows, cheap at thousands of
 * files. An image is decoded straight to the size shown (`createImageBitmap` with a resize, in a module Worker
 * where the browser allows), a video gives its first frame where the browser decodes it, other files nothing.
 * At most two files are decoded at once; a preview is made once per file and size and kept while a row shows it,
 * then among the last 200 shown, so that a virtual list scrolled back draws again without decoding.
 * Framework-free: any view draws the bitmap into its own `<canvas>`.
 */
import { previewCache } from './preview/preview-cache';
import { taskLimit } from './preview/task-limit';
import { imageBitmapOf } from './preview/image-preview';
import { openVideoUrls, videoFrame } from './preview/video-frame';

/** What {@link createPreview} is asked. */
export interface PreviewOptions {
  /**
   * The side of the square the preview fills, in device pixels (CSS pixels times `devicePixelRatio`): the
   * bitmap's shorter side is `size`, its longer side in proportion (crop it to a square with CSS
   * `object-fit: cover`), never larger than the file's own picture. Rounded to a whole number.
   */
  size: number;
  /** Aborts the wait: the preview, if still queued, is not made, and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A preview made by {@link createPreview}: shared with every other holder of the same file and size. */
export interface Preview {
  /** What it shows: the image itself, or the first frame of a video. */
  readonly kind: 'image' | 'video';
  /**
   * The picture, `width` × `height` pixels. Shared: draw it (`drawImage`, or a copy from
   * `createImageBitmap(bitmap)` for a `bitmaprenderer` canvas), never close or transfer it. Valid until
   * `release()`.
   */
  readonly bitmap: ImageBitmap;
  /** The bitmap's width, in pixels. */
  readonly width: number;
  /** The bitmap's height, in pixels. */
  readonly height: number;
  /**
   * Lets go of the preview (when its row goes): once no holder is left it waits among the last 200 shown, the
   * oldest closed beyond that. Later calls do nothing.
   */
  release(): void;
}

/**
 * Files decoded at once. A decode holds the file's picture in memory while it runs, the whole 24-megapixel
 * picture (~96 MB) in an engine that cannot decode a JPEG at a reduced scale; two keep that bounded and leave
 * the page a core on a two-core machine.
 */
const DECODES_AT_ONCE = 2;

/**
 * Previews kept after their last row let go: a virtual list's rows in view and overscan several times over,
 * at 80 × 80 pixels ~25 KB each, 5 MB at most.
 */
const KEPT = 200;

interface Made {
  kind: Preview['kind'];
  bitmap: ImageBitmap;
}

const limit = taskLimit(DECODES_AT_ONCE);
const cache = previewCache<Made>({ keep: KEPT, close: ({ bitmap }) => bitmap.close() });

/** The kind of preview a file of this media type gives, if any. */
function kindOf(type: string): Preview['kind'] | undefined {
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  return undefined;
}

/** Figures for tests and debugging only (not API): bitmaps open, previews known, video object URLs open. */
const DEBUG_KEY = Symbol.for('upbeam.previews');

function exposeDebugFigures(): void {
  const scope = globalThis as Record<symbol, unknown>;
  scope[DEBUG_KEY] ??= {
    get open() {
      return cache.open;
    },
    get known() {
      return cache.size;
    },
    get videoUrls() {
      return openVideoUrls.count;
    },
  };
}

/**
 * A small preview of `file` for a row: a bitmap whose shorter side is `options.size` pixels, made from an image
 * (any type the browser's `createImageBitmap` decodes: JPEG, PNG, GIF, WebP, AVIF where supported) or from a
 * video's first frame (where the browser plays the file), or `null` for any other file and for one the browser
 * cannot decode. Each image is decoded once per size (a second call, from another row or the same row scrolled
 * back into view, shares the first's bitmap), at most two at once, off the main thread where the browser can
 * run a module Worker. Release each preview when its row goes; {@link clearPreviews} when the list is cleared.
 *
 * @throws {RangeError} When `options.size` is not a positive number.
 * @returns The preview, `null` where the file gives none; rejects with the signal's reason when aborted first.
 * @example
 * ```ts
 * import { createPreview } from '@upbeam/upload-client/preview';
 *
 * const canvas = document.createElement('canvas');
 * const preview = await createPreview(file, { size: 40 * devicePixelRatio });
 * if (preview) {
 *   canvas.width = preview.width;
 *   canvas.height = preview.height;
 *   canvas.getContext('2d')!.drawImage(preview.bitmap, 0, 0);
 * }
 * // when the row goes:
 * preview?.release();
 * ```
 */
export async function createPreview(file: File, options: PreviewOptions): Promise<Preview | null> {
  const size = Math.round(options.size);
  if (!(size > 0)) throw new RangeError(`createPreview: size must be a positive number of pixels, got ${options.size}`);
  const { signal } = options;
  signal?.throwIfAborted();
  const kind = kindOf(file.type);
  if (!kind) return null;
  exposeDebugFigures();
  const held = cache.acquire(file, size, (stop) =>
    limit.run(async (): Promise<Made | null> => {
      const bitmap = kind === 'image' ? await imageBitmapOf(file, size).catch(() => null) : await videoFrame(file, size, stop);
      return bitmap && { kind, bitmap };
    }, stop),
  );
  const onAbort = () => held.release();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const made = await held.made;
    signal?.throwIfAborted();
    if (!made) {
      held.release();
      return null;
    }
    return { kind: made.kind, bitmap: made.bitmap, width: made.bitmap.width, height: made.bitmap.height, release: held.release };
  } catch (error) {
    held.release();
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Draws the preview of `file` into `canvas` once made (see {@link createPreview}): the canvas is sized to the
 * bitmap (`width` × `height` pixels; scale and crop it with CSS, e.g. `object-fit: cover`) and shows its own
 * copy through a `bitmaprenderer` context (the lightest way to show a bitmap: no 2D backing store of its own),
 * then gets `data-preview="drawn"`. Nothing is drawn for a file without a preview. Call the function returned
 * when the row goes or shows another file: it stops the preview if still queued, releases it and empties the canvas.
 *
 * @throws {RangeError} When `options.size` is not a positive number.
 * @returns A function that undoes it (idempotent).
 * @example
 * ```ts
 * import { drawPreview } from '@upbeam/upload-client/preview';
 *
 * const canvas = row.querySelector('canvas')!;
 * const undraw = drawPreview(canvas, file, { size: 40 * devicePixelRatio });
 * // when the row goes:
 * undraw();
 * ```
 */
export function drawPreview(canvas: HTMLCanvasElement, file: File, options: Omit<PreviewOptions, 'signal'>): () => void {
  if (!(Math.round(options.size) > 0)) throw new RangeError(`drawPreview: size must be a positive number of pixels, got ${options.size}`);
  const stop = new AbortController();
  let release = () => {};
  createPreview(file, { size: options.size, signal: stop.signal })
    .then(async (preview) => {
      if (!preview) return;
      release = preview.release;
      const copy = await createImageBitmap(preview.bitmap);
      if (stop.signal.aborted) return copy.close();
      canvas.width = copy.width;
      canvas.height = copy.height;
      canvas.getContext('bitmaprenderer')!.transferFromImageBitmap(copy);
      canvas.dataset.preview = 'drawn';
    })
    .catch(() => {});
  return () => {
    if (stop.signal.aborted) return;
    stop.abort();
    release();
    if (canvas.dataset.preview) canvas.getContext('bitmaprenderer')?.transferFromImageBitmap(null);
    delete canvas.dataset.preview;
  };
}

/**
 * Closes every preview no row holds and forgets the others, which close on their last `release()`: what a
 * list calls when it is cleared, so that no bitmap outlives its files.
 *
 * @example
 * ```ts
 * import { clearPreviews } from '@upbeam/upload-client/preview';
 *
 * clearButton.addEventListener('click', () => {
 *   tracker.reset();
 *   clearPreviews();
 * });
 * ```
 */
export function clearPreviews(): void {
  cache.clear();
}
