import { build } from 'esbuild';
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
  // The background uploads' service worker, `dist/service-worker.js` (`./service-worker.js` in `exports`): one
  // plain script with nothing to import, that an app serves as it is (or loads with `importScripts()`). Built
  // after the library, whose `clean` would remove it.
  onSuccess: async () => {
    await build({
      entryPoints: ['src/background/service-worker.ts'],
      outfile: 'dist/service-worker.js',
      bundle: true,
      format: 'iife',
      target: 'es2022',
      minify: true,
      sourcemap: true,
      legalComments: 'none',
    });
  },
});
