/**
 * A video file's first frame as a small bitmap, where the browser decodes the video: a `<video>` element kept
 * out of the document, loading only the metadata, sought to the first frame, drawn once with
 * `createImageBitmap`, then let go (its source removed, the object URL revoked), so that no decoder or
 * buffered media outlives the preview. `null` where the engine cannot play the file or gives no frame in time.
 */
import { fitted } from './decode-image';

/** Longest wait for the metadata and the first frame, in milliseconds: a file the engine stalls on gets no preview. */
export const VIDEO_FRAME_TIMEOUT_MS = 10_000;

/** Object URLs of videos being read now (a debug figure: every one is revoked once its frame is drawn or given up). */
export const openVideoUrls = { count: 0 };

export function videoFrame(file: Blob, size: number, signal: AbortSignal): Promise<ImageBitmap | null> {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'metadata';
  const url = URL.createObjectURL(file);
  openVideoUrls.count += 1;
  return new Promise<ImageBitmap | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), VIDEO_FRAME_TIMEOUT_MS);
    const give = (bitmap: Promise<ImageBitmap | null>) => {
      clearTimeout(timer);
      bitmap.then(resolve, () => resolve(null));
    };
    signal.addEventListener('abort', () => give(Promise.resolve(null)), { once: true });
    video.onerror = () => give(Promise.resolve(null));
    video.onloadedmetadata = () => {
      if (!video.videoWidth || !video.videoHeight) return give(Promise.resolve(null));
      // Seeking loads the frame at that time; 0 itself may fire no `seeked` where the element is already there.
      video.currentTime = Math.min(0.001, video.duration || 0.001);
    };
    video.onseeked = () => {
      const resize = fitted({ width: video.videoWidth, height: video.videoHeight }, size);
      give(createImageBitmap(video, { ...resize, resizeQuality: 'medium' }));
    };
    video.src = url;
  }).finally(() => {
    video.onloadedmetadata = video.onseeked = video.onerror = null;
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
    openVideoUrls.count -= 1;
  });
}
