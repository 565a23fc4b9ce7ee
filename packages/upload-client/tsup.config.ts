import { libraryConfig } from '../../tsup.base';

export default libraryConfig({
  entry: ['src/index.ts', 'src/multipart.ts', 'src/uppy.ts', 'src/drop-zone.ts'],
});
