import { libraryConfig } from '../../tsup.base';

// The package's `dist` is emptied by the build script: the two builds below write there side by side.
export default [
  // The library, ESM and CJS. `createRequire(import.meta.url)` reaches s3rver's internals: the shim
  // gives the CJS build its own URL.
  libraryConfig({ entry: { index: 'src/index.ts' }, shims: true, clean: false }),
  // The command line (`npx @upbeam/local-s3`): ESM only, a bin is never required().
  libraryConfig({ entry: { cli: 'src/cli.ts' }, format: ['esm'], dts: false, clean: false }),
];
