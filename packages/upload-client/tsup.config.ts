import { libraryConfig } from '../../tsup.base';

export default libraryConfig({
  // `hash-worker` is not a subpath: the module Worker that the checksum chunk starts with
  // `new URL('./hash-worker.js', import.meta.url)`, emitted beside it in dist/ (an app's bundler follows that URL).
  entry: ['src/index.ts', 'src/multipart.ts', 'src/uppy.ts', 'src/drop-zone.ts', 'src/hash-worker.ts'],
});
