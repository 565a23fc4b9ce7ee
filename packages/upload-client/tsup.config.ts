import { libraryConfig } from '../../tsup.base';

export default libraryConfig({
  // `hash-worker` is not a subpath: the module Worker that the checksum chunk starts with
  // `new URL('./hash-worker.js', import.meta.url)`, emitted beside it in dist/ (an app's bundler follows that URL).
  // `image-worker` likewise: the module Worker `image/resize-image.ts` starts for each image.
  // `preview-worker` likewise: the module Worker of `@upbeam/upload-client/preview` (`preview/image-preview.ts`).
  entry: [
    'src/index.ts',
    'src/multipart.ts',
    'src/uppy.ts',
    'src/drop-zone.ts',
    'src/hash-worker.ts',
    'src/image.ts',
    'src/image-worker.ts',
    'src/preview.ts',
    'src/preview-worker.ts',
  ],
});
