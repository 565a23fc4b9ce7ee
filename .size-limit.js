// Byte budgets of what an app ships to the browser (esbuild, minified, gzip; react external). Issue #4 asks
// for 3 KB on the hook's initial chunk; with retries the engine is at 4.46 kB (2026-11-22), so these budgets
// hold today's size against growth until the engine is trimmed.
// The temporary-token path loads the AWS SDK with import(): its chunk is measured on its own and kept out
// of the initial budget by marking it external there.
const lazyChunks = ['./temporary-token-upload-*', './multipart-upload-*'];
const initialOnly = (config) => ({ ...config, external: [...(config.external ?? []), ...lazyChunks] });

export default [
  {
    name: '@upbeam/upload-react: useS3Upload, initial chunk (presigned and temporary-token paths)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: ['react', 'react-dom', 'react/jsx-runtime'],
    modifyEsbuildConfig: initialOnly,
    gzip: true,
    limit: '4.6 KB',
  },
  {
    name: '@upbeam/upload-client: uploadFile, initial chunk',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: initialOnly,
    gzip: true,
    limit: '3.9 KB',
  },
  {
    name: '@upbeam/upload-client: temporary-token lazy chunk (AWS SDK lib-storage, loaded on first use)',
    path: 'packages/upload-client/dist/multipart-upload-*.js',
    gzip: true,
    limit: '130 KB',
  },
];
