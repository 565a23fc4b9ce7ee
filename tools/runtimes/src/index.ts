/**
 * @module
 * The runtime matrix's tools: the packed `@upbeam/upload-server` installed into a folder as a user's install
 * would (`installPacked`), the app that serves it (`copyApp`, `tools/runtimes/app` and `next-app`), and Node.js
 * (the node adapter), Bun, Deno, workerd and Next.js's edge runtime (from their npm packages) started on it.
 */
export { appFolder, copyApp, installPacked, REPO } from './packed';
export { BINARIES, DENO_PERMISSIONS, startBun, startDeno, startNextEdge, startNode, startWorkerd, type AppDir } from './runtimes';
export { freePort, startServer, type RuntimeServer } from './server';
