// Byte budgets of what an app ships to the browser (esbuild, minified, ESM as an app's bundler emits it,
// gzip level 9; react external). `npm test` runs them; a budget that fails fails CI.
//
// The chunks loaded with import() are measured apart from the initial chunk by marking them external:
// - ./presigned-multipart-*: the part engine and the presigned multipart upload, loaded for a file at or
//   above `multipartThreshold` (100 MiB by default);
// - ./temporary-token-*: the temporary-token strategy (the part engine, the SigV4 signer, the token
//   session), loaded on the first temporary-token upload.
// Issue #4: the hook's presigned path stays near 3 KB gzip (4.6 KB since the tracker became a queue of many
// files with totals, speed and time left, retry and remove: +1.04 kB); the multipart engine and the temporary-token
// strategy never weigh on it. No AWS SDK is shipped any more (lib-storage read every Blob into memory).
// - ./checksum-*: the MD5 of `checksum: 'md5'` (hash-wasm's MD5), loaded for the first upload with a checksum.
// Issue "One send loop, and progress that never claims a byte": the single PUT goes through the send loop of the
// parts (sign -> send -> read -> recover, the recovery step in one place) and progress falls back when a request
// fails: +0.27 kB on the hook's initial chunk (4.88 -> 5.15 kB), +0.30 kB on uploadFile's (2.75 -> 3.05 kB).
// Issue 20 item 5 ("at scale", 5,000 files in one list): the tracker keeps its files in a map with a snapshot made
// once per change batch (unchanged files keep their objects) and calls its listeners at most once per animation
// frame, less often when they are slow (FrameNotifier, TrackedFiles), plus getFile(id): +0.29 to +0.37 kB on every
// chunk holding the tracker (measured 2026-11-25: React initial 5.63 kB, multipart 8.81, token 17.56, Vue 5.48 and
// 7.07 with the drop zone, Svelte 5.39 and 6.94, React with the drop zone 7.40); uploadFile alone is unchanged. Not
// lazy: the first notification needs it.
const TOKEN_CHUNK = './temporary-token-*';
const MULTIPART_CHUNK = './presigned-multipart-*';
const CHECKSUM_CHUNK = './checksum-*';
// - ./tracker-persistence-*: the kept queue, its Web Locks and the tracker's wiring to it (keep, forget,
//   restore; issue 23), loaded by a tracker with `persist` only: external in every measure (none of them sets
//   `persist`). Until 2026-11-25 the wiring sat in the tracker (+0.37 kB on the hook's initial chunk, 5.30 ->
//   5.67 kB, 2026-11-24); what stays is the small host the tracker hands it, the `elsewhere` status and the
//   cancel of a queued file's kept upload (the abort itself is in that chunk).
const PERSIST_CHUNK = './tracker-persistence-*';
// - ./resume-journal-*: the resume journal (IndexedDB) and the Web Lock of its record, loaded by a multipart
//   upload with `resume` only (and so with `persist`): external in every measure (none sets `resume`). Until
//   2026-11-25 every multipart path carried them (+0.65 kB, 8.45 -> 9.10 kB, 2026-11-24).
const RESUME_CHUNK = './resume-journal-*';
// - ./virtual-rows-*: the components' virtualized list (TanStack Virtual), loaded by an `UploadList` that reaches
//   100 files: external in the components' initial chunk, measured with it in a budget of its own.
const VIRTUAL_CHUNK = './virtual-rows-*';
const esm = (...external) => (config) => ({
  ...config,
  format: 'esm',
  external: [...(config.external ?? []), PERSIST_CHUNK, RESUME_CHUNK, ...external],
});
const REACT = ['react', 'react-dom', 'react/jsx-runtime'];
const VUE = ['vue'];
const SVELTE = ['svelte', 'svelte/reactivity', 'svelte/attachments'];

export default [
  {
    name: '@upbeam/upload-react: useS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // +112 B (4,876 -> 4,988) for routes: the `route` and `tags` fields of the body and the tracker's
    // `maxFiles` check (TOO_MANY_FILES). fetchRouteRules is not in it (useDropZone's, tree-shaken away here).
    // Merged with main's 5.2 kB (the send loop and honest progress): both together measured 5.26 kB
    // (2026-11-24), over the higher of the two budgets by the routes' +59 B.
    // 6044 B after the session-7 merges (was 5.7 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 6.08 kB (2026-11-25, +40 B) with the tracker's getIds() (the ids array a list renders its rows from).
    // 6,061 B (2026-11-25, -20 B) once the tracker's persist wiring went lazy (-76 B), with the cancel of a
    // queued file's kept upload (+56 B); budget: that + 29 B.
    // +0.15 kB (2026-11-25, issue 20 item 5): `files` grows by 200 a frame (useGrowingList), so that a plain list given
    // 5,000 files at once never mounts them in one task (a useSyncExternalStore render cannot yield).
    // Both merged (2026-11-25): 6,206 B; budget + ~30 B.
    // 6,237 B (2026-11-27, +31 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + 30 B.
    // 6,279 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 6,407 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 7,133 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '7.17 kB',
  },
  {
    name: '@upbeam/upload-react: useS3Upload, presigned multipart path (initial chunk + multipart chunks)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // +0.1 kB (8.06 -> 8.14 kB): the part engine hashes the next parts while parts are in flight; +101 B
    // (8,167 -> 8,268) for routes, as above.
    // Merged with main's 8.4 kB (the send loop): both together measured 8.43 kB (2026-11-24).
    // +0.15 kB (8.43 -> 8.58 kB) for issue 22's part scheduling: the next part sent in the stored part's
    // answer task and the bookkeeping in a new one (next-task.ts), the next batch of part URLs signed at
    // half the current one; the parts' MD5 code left this path for the checksum chunk (checksum-parts.ts).
    // 9587 B after the session-7 merges (was 9.15 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 9,166 B (2026-11-25, -463 B): the resume journal and its Web Lock load only with `resume`, the tracker's
    // persist wiring only with `persist`. Then +~60 B for the first parts taken from the create answer (issue 22
    // item 5: no sign-parts before the first part; the engine's seeding and the presigned chunk's reading of
    // `parts`). Merged: 9.25 kB; budget + 30 B.
    // 9.78 kB (2026-11-25, +0.15 kB, issue 20 item 5): the initial chunk's growing `files` (useGrowingList), above.
    // Both merged (2026-11-25): 9,391 B; budget + ~30 B.
    // 9,422 B (2026-11-27, +31 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + ~30 B.
    // 9,458 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 9,583 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 10,312 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    // 10,353 B (2026-11-28, +41 B): the engine signs ahead for a backend that signs one part at a time (the token
    // session: each sender's next part while its current one is sent), shared with this path. Budget + ~30 B.
    limit: '10.38 kB',
  },
  {
    // The token chunks (strategy, part engine, SigV4 signer, token session) hold at most 12 KiB (12.29 kB)
    // beyond the initial chunk: this budget is at most the initial chunk's plus 12 KiB (6.09 + 12.29 = 18.38
    // kB). (A chunk file measured alone would count again the modules it shares with the initial chunk.)
    name: '@upbeam/upload-react: useS3Upload, temporary-token path (initial chunk + token chunks, these <= 12 KiB)',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload }',
    ignore: REACT,
    modifyEsbuildConfig: esm(MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // +53 B (16,889 to 16,942) for the server's checksum default: the answer read on the token path and
    // kept in the resume record; +0.1 kB for the part engine's hashing ahead, as above; +99 B (17,011 ->
    // 17,110) for routes and tags in the body; +0.14 kB (17.19 -> 17.33 kB) for the part scheduling, as
    // above: the token chunks are then 12.07 kB beyond the initial chunk (5.26 kB), within 12 KiB.
    // 18343 B after the session-7 merges (was 17.9 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // Those were 12,305 B beyond the initial chunk (18,386 - 6,081), 17 B over 12 KiB. 17,928 B (2026-11-25,
    // -458 B): the resume journal and its Web Lock load only with `resume` (-0.5 kB). Then +~60 B for the engine's
    // seeding of parts signed before it starts (shared with the presigned path). Merged: 17.97 kB,
    // the token chunks 11.91 kB beyond the 6.06 kB initial chunk, within 12 KiB; budget + 30 B.
    // 18.53 kB (2026-11-25, +0.15 kB, issue 20 item 5): the initial chunk's growing `files` (useGrowingList), above.
    // Both merged (2026-11-25): 18,111 B (the token chunks 11,905 B beyond the 6,206 B initial chunk: within 12 KiB); budget + ~30 B.
    // 18,140 B (2026-11-27, +29 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; the token chunks 11,903 B beyond the 6,237 B
    // initial chunk. Budget + 30 B.
    // 18,184 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 18,308 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 18,966 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    // 19,012 B (2026-11-28, +46 B): each sender's next part signed while its current one is sent (multipart-engine.ts
    // #signAhead); the token chunks 11,872 B beyond the 7,140 B initial chunk, within 12 KiB. Budget + ~30 B.
    limit: '19.04 kB',
  },
  {
    name: '@upbeam/upload-client: uploadFile, initial chunk',
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 3,239 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '3.27 kB',
  },
  {
    // The checksum chunk alone (hash-wasm's MD5 with its WebAssembly inlined as base64), loaded only with
    // `checksum: 'md5'`: its weight beyond the single-PUT initial chunk. +0.2 kB (7.97 -> 8.17 kB) for
    // reading through a BYOB reader into one reused buffer, with a slice fallback (WebKit) and yields.
    name: "@upbeam/upload-client: uploadFile with checksum: 'md5' (initial chunk + checksum chunk)",
    path: 'packages/upload-client/dist/index.js',
    import: '{ uploadFile }',
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK),
    gzip: true,
    // +30 B (8,192 -> 8,222) for the `route` and `tags` fields of the body.
    // Merged with main's 8.5 kB (the send loop): both together measured 8.51 kB (2026-11-24).
    // +26 B (8.51 -> 8.58 kB with the module the part engine shares, next-task.ts) for issue 22: one budget of
    // hashing per task, shared by the hashes that follow one another.
    // 8,731 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '8.77 kB',
  },
  // Issue #21: the Vue and Svelte bindings weigh what React's does (the tracker; vue or svelte external), and
  // the drop zone (DropZoneController of @upbeam/upload-client/drop-zone, shared by all three) ~1.6 kB more.
  // Measured 2026-11-24: Vue 4.75 / 6.33 kB, Svelte 4.66 / 6.21 kB, React's hook with its drop zone 6.23 kB;
  // then the send loop and honest progress (the tracker they all share) added ~0.2 kB to each: Vue 5.02 / 6.61,
  // Svelte 4.93 / 6.48, React with its drop zone 6.50 kB. Merged with routes (2026-11-24): the tracker's
  // `route`, `tags` and `maxFiles` add ~30 B to each (Vue 5.12 / 6.70, Svelte 5.04 / 6.58 kB); React's drop
  // zone also reads a route's rules from the endpoint's GET (`route` option: useRouteRules, fetchRouteRules),
  // +0.5 kB: 7.02 kB.
  {
    name: '@upbeam/upload-vue: useS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-vue/dist/index.js',
    import: '{ useS3Upload }',
    ignore: VUE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 5891 B after the session-7 merges (was 5.6 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 5,906 B (2026-11-25, -16 B) with the tracker's persist wiring lazy, as React's above; budget: that + 24 B.
    // 5,939 B (2026-11-27, +34 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + ~30 B.
    // 5,982 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 6,145 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '6.18 kB',
  },
  {
    name: '@upbeam/upload-vue: useS3Upload and useDropZone, initial chunk',
    path: 'packages/upload-vue/dist/index.js',
    import: '{ useS3Upload, useDropZone }',
    ignore: VUE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7473 B after the session-7 merges (was 7.15 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 7,481 B (2026-11-25, -24 B) with the tracker's persist wiring lazy; budget: that + 29 B.
    // 7,510 B (2026-11-27, +30 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + 30 B.
    // 7,553 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 7,717 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '7.75 kB',
  },
  {
    name: '@upbeam/upload-svelte: createS3Upload, initial chunk (all a presigned single PUT needs)',
    path: 'packages/upload-svelte/dist/index.js',
    import: '{ createS3Upload }',
    ignore: SVELTE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 5808 B after the session-7 merges (was 5.5 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 5,822 B (2026-11-25, -17 B) with the tracker's persist wiring lazy; budget: that + 28 B (unchanged).
    // 5,855 B (2026-11-27, +33 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + ~30 B.
    // 5,896 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 6,060 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '6.09 kB',
  },
  {
    name: '@upbeam/upload-svelte: createS3Upload and createDropZone, initial chunk',
    path: 'packages/upload-svelte/dist/index.js',
    import: '{ createS3Upload, createDropZone }',
    ignore: SVELTE,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7357 B after the session-7 merges (was 7.05 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 7,361 B (2026-11-25, -29 B) with the tracker's persist wiring lazy; budget: that + 29 B.
    // 7,392 B (2026-11-27, +32 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + ~30 B.
    // 7,435 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 7,593 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '7.63 kB',
  },
  {
    name: '@upbeam/upload-react: useS3Upload and useDropZone, initial chunk',
    path: 'packages/upload-react/dist/index.js',
    import: '{ useS3Upload, useDropZone }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // 7810 B after the session-7 merges (was 7.5 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 7,831 B (2026-11-25, -19 B; it had reached its budget, 7,850 B) with the tracker's persist wiring lazy;
    // budget: that + 19 B (unchanged).
    // +0.15 kB (2026-11-25, issue 20 item 5): `files` grows by 200 a frame (useGrowingList), so that a plain list given
    // 5,000 files at once never mounts them in one task (a useSyncExternalStore render cannot yield).
    // Both merged (2026-11-25): 7,964 B; budget + ~30 B.
    // 7,993 B (2026-11-27, +29 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + ~30 B.
    // 8,037 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 8,168 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 8,893 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '8.93 kB',
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
    // 7832 B after the session-7 merges (was 7.1 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 7,850 B (2026-11-25, -24 B) with the tracker's persist wiring lazy; budget: that + 30 B.
    // +0.15 kB (2026-11-25, issue 20 item 5): `files` grows by 200 a frame (useGrowingList), so that a plain list given
    // 5,000 files at once never mounts them in one task (a useSyncExternalStore render cannot yield).
    // Both merged (2026-11-25): 7,980 B; budget + ~30 B.
    // 8,011 B (2026-11-27, +31 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread; budget + ~30 B.
    // 8,067 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 8,197 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 8,917 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    limit: '8.95 kB',
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
    // Measured 2026-11-25: 10.58 kB, of which 7.02 kB is useS3Upload with useDropZone (above): the components +3.56 kB.
    // 11368 B after the session-7 merges (was 10.6 kB): persist's wiring in the tracker (its store is lazy) and the
    // snapshots at scale (TrackedFiles, FrameNotifier: needed by the first notification), with the part scheduling.
    // 11.52 kB (2026-11-25, +0.15 kB) once UploadList renders its rows by id: the tracker's getIds(), useTrackedIds
    // and the row that reads its own file (the list then renders again only when a file is added or removed).
    // 11,526 B (2026-11-25, -25 B) with the tracker's persist wiring lazy; budget: that + 24 B.
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK, VIRTUAL_CHUNK),
    // 11.92 kB (2026-11-25, +0.32 kB, issue 20 item 5): the hook's growing `files` (+0.15 kB, above) and the list's
    // lazy virtualized rows (React.lazy, Suspense, the rows' place and aria-posinset/aria-setsize): TanStack Virtual
    // itself is in the virtual-rows chunk, loaded only by a list of 100 files or more.
    // Both merged (2026-11-25): 11,903 B. +101 B (12,004 B) for the rows' memo comparison (sameRowProps: a row's
    // place equal by its fields), so that scrolling a virtualized list renders only rows whose file changed.
    // +28 B (12,032 B, 2026-11-26): a component given `upload` hands its own hook its options without `persist`
    // (its empty tracker restored the kept queue beside the owner's).
    // 12,117 B (2026-11-27, +83 B): the notifier's hidden-tab check, with the listeners back at a tenth of the main thread (+31 B), and formatBytes' cache of
    // Intl.NumberFormat (+~50 B: a call 36 times faster; every row formats its sizes and speed). Budget + ~30 B.
    // 12,155 B (2026-11-27, +38 B): the rows that stand in while the virtualized rows load are a view's worth (20),
    // not 100 (a 52-75 ms mount frame at 1,000-5,000 files on a slow day). Budget + ~30 B.
    // 12,199 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 12,259 B (2026-11-27, +60 B): UploadList makes its number formats in an idle callback once mounted (a page's
    // first Intl.NumberFormat costs 23-36 ms in chromium: it was in the frame drawing the first rows of a drop).
    // 12,391 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 13,118 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    // 13,151 B (2026-11-29, issue 42 hole 4): the tracker gives its persistence its list's ids (a clear of its scope
    // empties it) and the scope of `persist` to each upload's `resume`. Budget + ~30 B.
    limit: '13.18 kB',
  },
  {
    // Issue 20 item 5: from 100 files UploadList mounts only the rows in view, with TanStack Virtual in a chunk
    // loaded then (the virtualizer, its measuring of rows, the focused row kept): what a list of thousands adds.
    name: '@upbeam/upload-react/components: as above, with the virtualized list of 100 files and more (initial chunk + virtual-rows chunk)',
    path: 'packages/upload-react/dist/components.js',
    import: '{ Uploader, UploadDropzone, UploadButton, UploadList }',
    ignore: REACT,
    modifyEsbuildConfig: esm(TOKEN_CHUNK, MULTIPART_CHUNK, CHECKSUM_CHUNK),
    gzip: true,
    // Measured 2026-11-25: 23 kB, the virtual-rows chunk 11.1 kB of it (TanStack Virtual's core ~10 kB: ranges,
    // measured sizes, scroll and resize observers, the window's and an element's scrolling).
    // Both merged (2026-11-25): 23,029 B; 23,137 B with the rows' memo comparison (above); 23,163 B with the
    // options without `persist` of a component given `upload` (2026-11-26).
    // 23,242 B (2026-11-27, +76 B): as above. Budget + ~30 B.
    // 23,289 B (2026-11-27, +47 B): as above. Budget + ~30 B.
    // 23,322 B (2026-11-27, +~42 B): tracked file ids from a pool of random bytes (one getRandomValues a 128 ids,
    // not one an id as nanoid's browser build: 5,000 ids ~5 ms in chromium, from 20-35 ms). Budget + ~30 B.
    // 23,383 B (2026-11-27, +61 B): the number formats made when idle, as above. Budget + ~30 B.
    // 23,447 B (2026-11-27, +64 B): for a second after a row takes the focus, each render brings it into view again
    // (rows measured on the way moved it out of view in WebKit under load: the 500-row Tab walk failed 3 of 3 in CI).
    // 23,568 B (2026-11-27, +~125 B): a batch of files reaches the list in steps sized by the time the last step took
    // (100 rows first, then about 25 ms of render and layout a frame, 20 to 1,000 rows), not a fixed 200 a frame
    // (200 rows of a plain list took 50-90 ms a frame in chromium on a slow day). Budget + ~30 B.
    // +~25 B (2026-11-27): the growth steps sized from a row's own cost beside the rest of the frame (35 ms, at most
    // x1.5, a long frame's time per row kept as a row's cost): bench:growth, 5,000 rows whole in ~2 s from ~4 s. Budget + ~30 B.
    // Issue 20 item 5 (2026-11-27): `files` and `summary` render in paced transitions, one at a time
    // (use-transition-pacer.ts, use-tracker-view.ts), in place of useSyncExternalStore: +~0.47 kB.
    // 24,308 B (2026-11-28, issue 22 item 5): a single temporary-token PUT asks for its credentials while the
    // strategy's chunk loads (temporary-token/prepare-token.ts in the initial chunk), and a tracker given that strategy
    // loads the chunk when it is made (preloadStrategy): ~+0.14 kB together. Budget + ~30 B.
    // +~30 B (2026-11-29, issue 42 hole 4): as the components' initial chunk.
    limit: '24.37 kB',
  },
  {
    name: '@upbeam/upload-react/components.css: the components\' stylesheet',
    path: 'packages/upload-react/dist/components.css',
    gzip: true,
    // Measured 2026-11-25: 1.27 kB (the palette as light-dark() pairs).
    limit: '1.3 kB',
  },
];
