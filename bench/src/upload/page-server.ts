/**
 * Builds the benchmark page with esbuild and serves it on 127.0.0.1, with the two preparation endpoints
 * of the current storage target: `/api/upbeam` and `/api/next-s3-upload` (and `/api/floor-multipart/*`, the
 * server side of the browser multipart floor). The storage listens on another
 * port, so every upload is cross-origin (CORS preflights included), as in production.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { build, type Plugin } from 'esbuild';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { floorMultipartApi } from './floor-multipart-api';
import { logged, takeEndpointCalls, type EndpointCall } from './server-log';
import type { Target } from './targets';

/** Where the upload benchmark's page is built. */
export const PAGE_DIR = join(TMP_DIR, 'page');

/** The page's HTML: its entry is `page.js`, beside it. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Upbeam upload benchmark</title></head>
  <body><div id="root"></div><script type="module" src="page.js"></script></body>
</html>
`;

/** Where {@link buildPage} writes a page, what it bundles, and what it resolves elsewhere. */
export interface PageBuild {
  /** The page's entry file. @default src/upload/page.tsx */
  entry?: string;
  /** The folder written (emptied first), served by {@link startPageServer} at its root or below. @default .tmp/page */
  outDir?: string;
  /** esbuild plugins (e.g. one that resolves a package to another build of it). */
  plugins?: Plugin[];
}

/** Bundles a page (production React, code splitting: the AWS SDK chunk loads on first token upload). */
export async function buildPage({ entry = join(BENCH_DIR, 'src', 'upload', 'page.tsx'), outDir = PAGE_DIR, plugins }: PageBuild = {}): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    entryPoints: { page: entry },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir: outDir,
    ...(plugins ? { plugins } : {}),
    logLevel: 'error',
  });
  await writeFile(join(outDir, 'index.html'), PAGE_HTML);
}

export interface PageServer {
  origin: string;
  /** Where `/api/*` goes. */
  setTarget(target: Target): void;
  /** What the endpoints did since the last call (server-log.ts). */
  takeEndpointCalls(): EndpointCall[];
  close(): Promise<void>;
}

/**
 * Serves the pages under `root` (a page's folder is its path: `/` for `root` itself) and the endpoints.
 * @param delayMs - Every request (the page's files and the endpoints, not storage) is answered this many
 *   milliseconds late: an app server a round trip away, where loopback has none. Default 0.
 */
export async function startPageServer(root = PAGE_DIR, { delayMs = 0 }: { delayMs?: number } = {}): Promise<PageServer> {
  let target: Target | undefined;
  const upbeam = getRequestListener((request) => {
    if (!target) return new Response('no target', { status: 503 });
    const { upbeam: handler } = target;
    return logged('/api/upbeam', request, async (logging) => handler(logging));
  });
  // The handler as a server without the first parts in the `create` answer answered: the client signs
  // them with `sign-parts` (the comparison of the lead-in with and without them, in one run).
  const unsignedCreate = getRequestListener(async (request) => {
    if (!target) return new Response('no target', { status: 503 });
    const { upbeam: handler } = target;
    return logged('/api/upbeam-unsigned-create', request, async (logging) => {
      const response = await handler(logging);
      const answer = (await response.json()) as { parts?: unknown; uploadId?: unknown };
      if (answer.uploadId !== undefined) delete answer.parts;
      return Response.json(answer, { status: response.status });
    });
  });
  const floorMultipart = getRequestListener(async (request) => {
    if (!target) return new Response('no target', { status: 503 });
    const path = new URL(request.url).pathname;
    const current = target;
    return logged(path, request, async (logging) => (await floorMultipartApi(current, path, logging)) ?? new Response('not found', { status: 404 }));
  });
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/api/upbeam') return void upbeam(request, response);
    if (path === '/api/upbeam-unsigned-create') return void unsignedCreate(request, response);
    if (path.startsWith('/api/floor-multipart/')) return void floorMultipart(request, response);
    if (path === '/api/next-s3-upload') {
      if (!target) return void response.writeHead(503).end();
      return void target.nextS3Upload(request, response);
    }
    const file = normalize(path.endsWith('/') ? `${path}index.html` : path);
    readFile(join(root, file)).then(
      (bytes) =>
        response
          .writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html' : 'text/javascript', 'cache-control': 'no-store' })
          .end(bytes),
      () => response.writeHead(404).end(),
    );
  };
  const server: Server = createServer((request, response) => {
    if (delayMs > 0) setTimeout(() => answer(request, response), delayMs);
    else answer(request, response);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    setTarget: (next) => {
      target = next;
    },
    takeEndpointCalls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
