import { libraryConfig } from '../../tsup.base';

export default libraryConfig({
  // The main entry and one per framework adapter (`@upbeam/upload-server/node`, `/next`).
  entry: { index: 'src/index.ts', 'adapters/node': 'src/adapters/node.ts', 'adapters/next': 'src/adapters/next.ts',
    // The config doctor (`@upbeam/upload-server/doctor`) and its CLI (`npx @upbeam/upload-server doctor`).
    'doctor/index': 'src/doctor/index.ts',
    cli: 'src/cli.ts',
  },
  // Shared code goes to chunks that every entry imports, in CommonJS too (esbuild splits ESM only;
  // tsup's splitting extends it to CJS). Without it each adapter bundles its own copy of the handler
  // and of `UploadError`, and `instanceof` fails across entries.
  splitting: true,
});
