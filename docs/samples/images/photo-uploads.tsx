import { resizeImage } from '@upbeam/upload-client/image';
import { UploadDropzone } from '@upbeam/upload-react/components';

// Made once, outside the component: the transform is an option like any other.
const transform = resizeImage({ maxWidth: 2048, maxHeight: 2048, type: 'image/webp', quality: 0.8 });

/** Photos go up at most 2,048 pixels wide or tall, upright, as WebP (JPEG where the browser cannot), without GPS. */
export function PhotoUploads() {
  return <UploadDropzone route="photos" options={{ transform }} />;
}
