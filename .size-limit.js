// Byte budgets of what an app ships to the browser (esbuild, minified, gzip; react external).
// The temporary-token path loads the AWS SDK with import(): its chunk is measured on its own and kept out
// of the initial budget by marking it external there.
const lazyChunk = './multipart-upload-*';
const initialOnly = (config) => ({ ...config, external: [...(config.external ?? []), lazyChunk] });

export default [
  {
    name: '@upbeam/upload-react: useS3Upload, initial chunk (presigned and temporary-token paths)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: ['react', 'react-dom'],
    modifyEsbuildConfig: initialOnly,
    gzip: true,
    limit: '3 KB',
  },
  {
    name: '@upbeam/upload-client: uploadFile, initial chunk',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: initialOnly,
    gzip: true,
    limit: '3 KB',
  },
  {
    name: '@upbeam/upload-client: temporary-token lazy chunk (AWS SDK lib-storage, loaded on first use)',
    path: 'packages/upload-client/dist/multipart-upload-*.js',
    gzip: true,
    limit: '130 KB',
  },
];
