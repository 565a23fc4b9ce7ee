/**
 * @module
 * The runtime matrix's tools: the packed `@upbeam/upload-server` installed into a folder as a user's install
 * would (`installPacked`), the app that serves it (`copyApp`, `tools/runtimes/app`), and Bun, Deno and workerd
 * (from their npm packages) started on it.
 */
export { copyApp, installPacked, REPO } from './packed';
export { BINARIES, DENO_PERMISSIONS, startBun, startDeno, startWorkerd, type AppDir } from './runtimes';
export { freePort, startServer, type RuntimeServer } from './server';
