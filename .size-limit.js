// Byte budgets of what an app ships to the browser (esbuild, minified, ESM as an app's bundler emits it,
// gzip level 9; react external). `npm test` runs them; a budget that fails fails CI.
//
// The chunks loaded with import() are measured apart from the initial chunk by marking them external:
// - ./presigned-multipart-*: the part engine and the presigned multipart upload, loaded for a file at or
//   above `multipartThreshold` (100 MiB by default);
// - ./temporary-token-*: the temporary-token strategy (the part engine, the SigV4 signer, the token
//   session), loaded on the first temporary-token upload.
// - ./checksum-*: the checksums (`checksum: 'crc32c' | 'crc64nvme' | 'sha256' | 'md5'`) and the single PUT's
//   checksum flow (checksum-presigned-put), the tracker's hashing ahead (checksum-ahead), the token session's S3
//   names of a checksum (checksum-s3), loaded for the first upload with one; it starts the hash worker (dist/hash-worker.js, hash-wasm's four hashers: a budget of its own).
// - ./main-thread-digest-*: hash-wasm on the page's own thread, loaded only where the worker cannot start (CSP,
//   no Worker): external in every measure but the one of that fallback.
// The multipart engine and the temporary-token strategy never weigh on the hook's presigned path; no AWS SDK is
// shipped. Each budget is the size last measured plus ~30 B, with a one-line reason; how each grew, dated:
// bench/notes/bundle-budgets.md.
const TOKEN_CHUNK = './temporary-token-*';
const MULTIPART_CHUNK = './presigned-multipart-*';
const CHECKSUM_CHUNK = './checksum-*';
const MAIN_THREAD_HASH_CHUNK = './main-thread-digest-*';
// - ./tracker-persistence-*: the kept queue, its Web Locks and the tracker's wiring to it (keep, forget,
//   restore; issue 23), loaded by a tracker with `persist` only: external in every measure (none of them sets
//   `persist`).
const PERSIST_CHUNK = './tracker-persistence-*';
// - ./resume-journal-*: the resume journal (IndexedDB) and the Web Lock of its record, loaded by a multipart
//   upload with `resume` only (and so with `persist`): external in every measure (none sets `resume`).
const RESUME_CHUNK = './resume-journal-*';
// - ./virtual-rows-*: the components' virtualized list (TanStack Virtual), loaded by an `UploadList` that reaches
//   100 files: external in the components' initial chunk, measured with it in a budget of its own.
const VIRTUAL_CHUNK = './virtual-rows-*';
// - ./transform-file-*: what runs `UploadOptions.transform` (issue 48), loaded by the first upload with one:
//   external in every measure (none sets `transform`; the image transform's budgets are its own).
const TRANSFORM_CHUNK = './transform-file-*';
// - ./presigned-post-*: the presigned-post strategy (the form POST, its progress and refusals; issue 45), loaded by
//   the first upload with `strategy: 'presigned-post'` or a `presigned` answer with `fields`: external in every
//   measure but its own.
const POST_CHUNK = './presigned-post-*';
// Loaded with import() by a tracker given `background` only (issue 45).
const BACKGROUND_CHUNK = './background-uploads-*';
const esm = (...external) => (config) => ({
  ...config,
  format: 'esm',
  external: [...(config.external ?? []), PERSIST_CHUNK, RESUME_CHUNK, TRANSFORM_CHUNK, POST_CHUNK, BACKGROUND_CHUNK, ...external],
});
/** A measure's config with `chunk` bundled in (no longer external). */
const including = (chunk, modify) => (config) => {
  const modified = modify(config);
  return { ...modified, external: modified.external.filter((name) => name !== chunk) };
};
const REACT = ['react', 'react-dom', 'react/jsx-runtime'];
const VUE = ['vue'];
const SVELTE = ['svelte', 'svelte/reactivity', 'svelte/attachments'];
// Issue 48: the row previews (`@upbeam/upload-client/preview`), loaded with import() by the components' first
// row of an image or a video: external in the components' measures, measured in budgets of their own.
const PREVIEW_CHUNK = '@upbeam/upload-client/preview';
const ANGULAR = ['@angular/core'];
const SOLID = ['solid-js'];

export default [
  {
    name: '@upbeam/upload-react: useS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 8,495 B (2026-11-29) + ~30 B: the tracker (paced scheduler, file ends, TrackedUpload, a limit's hold), send loop, routes, list views; issue 46: the route's algorithm remembered, 412 (the checksum flow, its refusal and hash ahead lazy). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (8,601 B, 2026-11-29) + ~30 B: the tracker runs `transform` (loaded with import(): transform-file), the list shows the file sent, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~200 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~344 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~33 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '9.64 kB',
  },
  {
    name: '@upbeam/upload-react: useS3Upload, presigned multipart path (initial chunk + multipart chunks)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 12,752 B (2026-11-29) + ~30 B: the initial chunk, MultipartUpload and its parts (scheduled, signed ahead, each with its checksum; a refused checksum hashed again).
    // Issue 48 (12,869 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~150 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~324 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~26 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '13.83 kB',
  },
  {
    // The token chunks (strategy, part engine, SigV4 signer, token session) hold at most 12 KiB (12.29 kB)
    // beyond the initial chunk: this budget is at most the initial chunk's plus 12 KiB. (A chunk file measured
    // alone would count again the modules it shares with the initial chunk.)
    name: '@upbeam/upload-react: useS3Upload, temporary-token path (initial chunk + token chunks, these <= 12 KiB)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: REACT,
    modifyEsbuildConfig: esm(MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 21,485 B (2026-11-29) + ~30 B: the token chunks 12,990 B beyond the 8,495 B initial chunk: OVER 12 KiB by ~0.7 kB since issue 46 (part checksums in the shared part engine, the PutObject's hashing and If-None-Match, the part engine's checksum code; the session's S3 checksum names lazy: checksum-s3, -41 B).
    // Issue 48 (21,602 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~190 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~349 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~28 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '22.64 kB',
  },
  {
    name: '@upbeam/upload-client: uploadFile, initial chunk',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 3,963 B (2026-11-29) + ~30 B: one upload, no tracker; the token PUT's early credentials and a limit's refusal; issue 46: the route's algorithm remembered, CHECKSUM_REQUIRED handed over, 412 (+453 B over 3,451 B; the checksum flow and refusal lazy). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (4,005 B, 2026-11-29) + ~30 B: `transform` (its run loaded with import(): transform-file), +~42 B.
    // Issue 45 (2026-11-29) + ~117 B: the presigned-post dispatch and preload, a `presigned` answer with `fields` handed over.
    // Issue 47 (2026-11-29) + ~200 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    limit: '4.36 kB',
  },
  {
    name: '@upbeam/upload-client: uploadFile with presigned-post (initial chunk + the POST chunk)',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: including(POST_CHUNK, esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK)),
    gzip: true,
    // 5,860 B (2026-11-29, issue 45) + ~30 B: the POST chunk ~1.7 kB (the form, its honest progress, refusals, expiry).
    // Issue 47 (2026-11-29) + ~200 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 tidy (2026-11-29) + ~35 B: the POST's preparation (prepare-post.ts) shared with the background chunk, one chunk boundary more.
    limit: '6.15 kB',
  },
  {
    // The checksum chunk, loaded only with a checksum, with the single-PUT initial chunk: what the page's
    // thread loads where the hash worker runs (hash-wasm is in the worker's file, not here).
    name: '@upbeam/upload-client: uploadFile with a checksum (initial chunk + checksum chunk; hashed in the worker)',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, MAIN_THREAD_HASH_CHUNK),
    gzip: true,
    // 6,517 B (2026-11-29) + ~30 B: the checksum chunks ~2.5 kB (the single PUT's checksum flow and refusal, worker client, CRC combine, composite values). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (6,575 B, 2026-11-29) + ~30 B: `transform`, +~42 B.
    // Issue 45 (2026-11-29) + ~147 B: as the initial chunk, and the checksum flow's `fields` answer handed over.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    limit: '6.97 kB',
  },
  {
    // Where no worker can start: the above and hash-wasm's four hashers on the page's thread, with the BYOB
    // reader and its per-task budget.
    name: '@upbeam/upload-client: uploadFile with a checksum, no worker (initial chunk + checksum chunk + main-thread hashing)',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK),
    gzip: true,
    // 18,427 B (2026-11-29) + ~30 B: hash-wasm's four hashers ~11.5 kB, as in the worker, and the single PUT's checksum flow. Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (18,474 B, 2026-11-29) + ~30 B: `transform`, +~42 B.
    // Issue 45 (2026-11-29) + ~147 B: as the checksum measure above.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 47 tidy (2026-11-29) + ~8 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '18.90 kB',
  },
  {
    // The hash worker's file as an app's bundler emits it (hash-wasm inlined: CRC32C, CRC64NVME, SHA-256 and
    // MD5, each WebAssembly as base64), fetched by the page on its first checksum, off its main thread.
    name: '@upbeam/upload-client: the hash worker (dist/hash-worker.js)',
    path: 'packages/upload-client/dist/hash-worker.js',
    modifyEsbuildConfig: esm(),
    gzip: true,
    // 11,570 B (2026-11-29) + ~30 B: MD5 alone was ~5.5 kB; SHA-256, CRC32 and CRC64 add ~6 kB.
    limit: '11.6 kB',
  },
  // Issue 48: `@upbeam/upload-client/image`. The factory is what an app that sets `transform: resizeImage()` ships
  // at first; the resize chunk (./resize-image-*) comes with import() on the first image, the worker's file with it.
  {
    name: '@upbeam/upload-client/image: resizeImage, initial chunk (the factory)',
    path: 'packages/upload-client/dist/image.js',
    import: '{ resizeImage }',
    modifyEsbuildConfig: esm('./resize-image-*'),
    gzip: true,
    // 126 B (2026-11-29) + ~30 B: the factory: a type check and the import() of the resize chunk.
    limit: '0.16 kB',
  },
  {
    name: '@upbeam/upload-client/image: resizeImage with its resize chunk (the page side, loaded on the first image)',
    path: 'packages/upload-client/dist/image.js',
    import: '{ resizeImage }',
    modifyEsbuildConfig: esm(),
    gzip: true,
    // 1,512 B (2026-11-29) + ~30 B: the worker's start and answer, two images at once, the page-thread fallback (encode-image), the File made.
    limit: '1.55 kB',
  },
  {
    name: '@upbeam/upload-client: the image worker (dist/image-worker.js)',
    path: 'packages/upload-client/dist/image-worker.js',
    modifyEsbuildConfig: esm(),
    gzip: true,
    // 837 B (2026-11-29) + ~30 B: createImageBitmap upright, OffscreenCanvas, convertToBlob and its JPEG fallback.
    limit: '0.87 kB',
  },
  // Issue #21: the Vue and Svelte bindings weigh what React's does (the tracker; vue or svelte external), and
  // the drop zone (DropZoneController of @upbeam/upload-client/drop-zone, shared by all three) ~1.6 kB more.
  {
    name: '@upbeam/upload-vue: useS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-vue/dist/index.js',
    import: '{ useS3Upload }',
    ignore: VUE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7,603 B (2026-11-29) + ~30 B: the tracker React's hook has (paced scheduler, file ends), Vue external; issue 46's checksums (their flow lazy). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (7,706 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~298 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~20 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '8.70 kB',
  },
  {
    name: '@upbeam/upload-vue: useS3Upload and useDropZone, initial chunk',
    path: 'packages/upload-vue/dist/index.js',
    import: '{ useS3Upload, useDropZone }',
    ignore: VUE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 9,192 B (2026-11-29) + ~30 B: the above and DropZoneController. Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (9,291 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~100 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~220 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~558 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~22 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '10.56 kB',
  },
  {
    name: '@upbeam/upload-svelte: createS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-svelte/dist/index.js',
    import: '{ createS3Upload }',
    ignore: SVELTE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7,521 B (2026-11-29) + ~30 B: the tracker React's hook has (paced scheduler, file ends), Svelte external; issue 46's checksums (their flow lazy). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (7,626 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~296 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~20 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '8.62 kB',
  },
  {
    name: '@upbeam/upload-svelte: createS3Upload and createDropZone, initial chunk',
    path: 'packages/upload-svelte/dist/index.js',
    import: '{ createS3Upload, createDropZone }',
    ignore: SVELTE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 9,074 B (2026-11-29) + ~30 B: the above and DropZoneController. Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (9,176 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~100 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~566 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~26 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '10.45 kB',
  },
  {
    name: '@upbeam/upload-solid: createS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-solid/dist/index.js',
    import: '{ createS3Upload }',
    ignore: SOLID,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7,795 B (2026-11-29) + ~30 B: Svelte's createS3Upload (7,678 B, measured beside it) and Solid's signal and cleanup; solid-js external.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~245 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~29 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '8.74 kB',
  },
  {
    name: '@upbeam/upload-solid: createS3Upload and createDropZone, initial chunk',
    path: 'packages/upload-solid/dist/index.js',
    import: '{ createS3Upload, createDropZone }',
    ignore: SOLID,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 9,789 B (2026-11-29) + ~30 B: the above, DropZoneController, and a route's rules from the endpoint's GET (fetchRouteRules, as React's useDropZone).
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~220 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~534 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~25 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '11.03 kB',
  },
  {
    name: '@upbeam/upload-angular: injectS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-angular/dist/index.js',
    import: '{ injectS3Upload }',
    ignore: ANGULAR,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7,694 B (2026-11-29) + ~30 B: Svelte's createS3Upload (7,626 B) and signals, DestroyRef; Angular external.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~220 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~280 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~25 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '8.68 kB',
  },
  {
    name: '@upbeam/upload-angular: injectS3Upload and the drop zone directives, initial chunk',
    path: 'packages/upload-angular/dist/index.js',
    import: '{ injectS3Upload, UpbeamDropZone, UpbeamDropZoneInput }',
    ignore: ANGULAR,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 9,995 B (2026-11-29) + ~30 B: the above, DropZoneController and the directives' partial declarations
    // (an app's Angular linker rewrites them; their class metadata is dropped from a production build).
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~220 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~574 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~31 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '11.28 kB',
  },
  {
    name: '@upbeam/upload-react: useS3Upload and useDropZone, initial chunk',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload, useDropZone }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 10,513 B (2026-11-29) + ~30 B: the hook's initial chunk, the drop zone (DropZoneController) and a route's rules. Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (10,618 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~230 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~621 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~27 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '11.96 kB',
  },
  {
    // The typed hooks of a server's routes: the factory hands out both hooks, so an app using it ships the
    // drop zone too (+1.8 kB over useS3Upload alone); the factory itself is a few bytes.
    name: '@upbeam/upload-react: createRouteHooks (useS3Upload and useDropZone), initial chunk',
    path: 'packages/upload-react/dist/index.js',
    import: '{ createRouteHooks }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 10,534 B (2026-11-29) + ~30 B: both hooks, as above, and the factory's few bytes. Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B).
    // Issue 48 (10,642 B, 2026-11-29) + ~30 B: the tracker's `transform`, +~105 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~230 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~615 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~31 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '11.98 kB',
  },
  // Issue #20: the ready-made components (`@upbeam/upload-react/components`), a subpath of their own, so the hook's
  // budgets above do not move. Measured with all four components (the hook, the drop zone and the tracker
  // included: what an app ships for `<Uploader />`), and their stylesheet.
  {
    name: '@upbeam/upload-react/components: Uploader, UploadDropzone, UploadButton, UploadList, initial chunk (hook included)',
    path: 'packages/upload-react/dist/components.js',
    import: '{ Uploader, UploadDropzone, UploadButton, UploadList }',
    ignore: REACT,
    gzip: true,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK, VIRTUAL_CHUNK, PREVIEW_CHUNK),
    // 14,760 B (2026-11-29) + ~30 B: the hook with its drop zone and the four components (TanStack Virtual lazy). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B). Issue 48 locales: +346 B (the same tree built with and without: rejections worded by code with their sizes, error words by code, percent and separator labels, lang and dir). Issue 48 previews: +69 B (the same tree with and without: the thumbnail's lazy drawPreview and clearing on an emptied list).
    // Issue 48 (15,320 B, 2026-11-29) + ~30 B: the tracker's `transform` and the drop zone leaving maxFileSize to the server with one, +~110 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~210 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~645 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape), and the drop zone's folder walk in batches (~270 B) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~22 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '16.66 kB',
  },
  {
    // Issue 20 item 5: from 100 files UploadList mounts only the rows in view, with TanStack Virtual in a chunk
    // loaded then (the virtualizer, its measuring of rows, the focused row kept): what a list of thousands adds.
    name: '@upbeam/upload-react/components: as above, with the virtualized list of 100 files and more (initial chunk + virtual-rows chunk)',
    path: 'packages/upload-react/dist/components.js',
    import: '{ Uploader, UploadDropzone, UploadButton, UploadList }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK, PREVIEW_CHUNK),
    gzip: true,
    // 25,958 B (2026-11-29) + ~30 B: the above and the virtual-rows chunk (TanStack Virtual, ~11 kB). Issue 46 tidy (2026-11-29): one 412 rule shared (attemptWatch, +~60 B). Issue 48 locales: +354 B (as above). Issue 48 previews: +69 B (as above).
    // Issue 48 (26,514 B, 2026-11-29) + ~30 B: the tracker's `transform`, the drop zone's maxFileSize with one, +~110 B.
    // Issue 45 (2026-11-29) + ~117 B: uploadFile's presigned-post dispatch and preload.
    // Issue 47 (2026-11-29) + ~220 B: the multipart create sent while the multipart chunk loads (createAhead: the lead-in).
    // Issue 45 (2026-11-29) + ~260 B: the tracker's `background` option (its Background Fetch chunk loaded with import()).
    // Issue 47 (2026-11-29) + ~651 B: the tracker at 50,000 files (summary totals kept file by file, Cancel all in 8 ms slices, the queue's dropAll, one snapshot shape) (not measured apart; a lazy folder walk is left for later).
    // Issue 47 tidy (2026-11-29) + ~24 B: an upload created ahead is aborted when the multipart chunk fails to load (loadAfterCreate: no orphaned upload).
    limit: '27.87 kB',
  },
  {
    // Issue 48: what the components' first image or video row loads (`drawPreview`: the cache, the decode queue,
    // the worker's page side, the video frame); React's own code is not in it.
    name: '@upbeam/upload-client/preview: createPreview, drawPreview, clearPreviews (the row previews\' chunk)',
    path: 'packages/upload-client/dist/preview.js',
    import: '{ createPreview, drawPreview, clearPreviews }',
    modifyEsbuildConfig: esm(),
    gzip: true,
    // 2,769 B (2026-11-29) + ~30 B.
    limit: '2.8 kB',
  },
  {
    // The preview worker's file, fetched with the first image: the header reader and createImageBitmap's call.
    name: '@upbeam/upload-client: the preview worker (dist/preview-worker.js)',
    path: 'packages/upload-client/dist/preview-worker.js',
    modifyEsbuildConfig: esm(),
    gzip: true,
    // 875 B (2026-11-29) + ~30 B.
    limit: '905 B',
  },
  // Issue 48: the components' words in other languages (`@upbeam/upload-react/locales`), one entry whose locales
  // tree-shake: an app ships the one it imports (its words and the Intl helpers), never the others; the English
  // words stay in the components' initial chunk.
  {
    name: '@upbeam/upload-react/locales: one locale (fr)',
    path: 'packages/upload-react/dist/locales.js',
    import: '{ fr }',
    gzip: true,
    // 1,560 B (2026-11-29) + ~30 B: the French words and the Intl helpers (plurals, numbers, percent, durations).
    limit: '1.59 kB',
  },
  {
    name: '@upbeam/upload-react/locales: one locale (ar)',
    path: 'packages/upload-react/dist/locales.js',
    import: '{ ar }',
    gzip: true,
    // 1,797 B (2026-11-29) + ~30 B: the largest one (six plural forms twice, file names isolated).
    limit: '1.83 kB',
  },
  {
    name: '@upbeam/upload-react/locales: all seven (fr, de, es, ptBR, ja, zhCN, ar)',
    path: 'packages/upload-react/dist/locales.js',
    import: '{ fr, de, es, ptBR, ja, zhCN, ar }',
    gzip: true,
    // 6,498 B (2026-11-29) + ~30 B: an app importing all seven (the Intl helpers once).
    limit: '6.53 kB',
  },
  {
    name: '@upbeam/upload-react/components.css: the components\' stylesheet',
    path: 'packages/upload-react/dist/components.css',
    gzip: true,
    // 1,310 B (2026-11-29) + ~30 B: the palette as light-dark() pairs; issue 48: logical padding and border, the primary button filling from the right in a right-to-left locale.
    limit: '1.34 kB',
  },
];
