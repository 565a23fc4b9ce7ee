// Byte budgets of what an app ships to the browser (esbuild, minified, ESM as an app's bundler emits it,
// gzip level 9; react external). Each budget is today's size plus a little room, so that growth fails CI.
//
// The chunks loaded with import() are measured apart from the initial chunk by marking them external:
// - ./temporary-token-upload-*: the temporary-token strategy (option checks, credentials request, object
//   URL), loaded on the first temporary-token upload;
// - ./multipart-upload-*: the AWS SDK (lib-storage, client-s3), loaded by the former.
// Issue #4 asked for 3 KB on the hook's initial chunk; it is 3.30 kB (2026-11-22) with the retry policy of
// issue #5 inside (Retry-After, fresh URL on expiry): see the closing note of that session for the bytes
// each feature costs.
const TOKEN_CHUNK = './temporary-token-upload-*';
const SDK_CHUNK = './multipart-upload-*';
const esm = (...external) => (config) => ({ ...config, format: 'esm', external: [...(config.external ?? []), ...external] });

export default [
  {
    name: '@upbeam/upload-react: useS3Upload, initial chunk (all a presigned upload needs)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: ['react', 'react-dom', 'react/jsx-runtime'],
    modifyEsbuildConfig: esm(TOKEN_CHUNK, SDK_CHUNK),
    gzip: true,
    limit: '3.4 kB',
  },
  {
    name: '@upbeam/upload-react: useS3Upload, temporary-token path before the AWS SDK (initial + token chunk)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: ['react', 'react-dom', 'react/jsx-runtime'],
    modifyEsbuildConfig: esm(SDK_CHUNK),
    gzip: true,
    limit: '4.3 kB',
  },
  {
    name: '@upbeam/upload-client: uploadFile, initial chunk',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: esm(TOKEN_CHUNK, SDK_CHUNK),
    gzip: true,
    limit: '2.6 kB',
  },
  {
    name: '@upbeam/upload-client: AWS SDK chunk (lib-storage, client-s3), loaded on the first temporary-token upload',
    path: 'packages/upload-client/dist/multipart-upload-*.js',
    gzip: true,
    limit: '130 kB',
  },
];
