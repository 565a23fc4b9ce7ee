/**
 * The pages of the interop tests, bundled with esbuild, served on 127.0.0.1 with an Upbeam handler at the
 * default `/api/s3-upload` (through `@upbeam/upload-server/node`), and s3rver on another port, so that every
 * upload is cross-origin (CORS preflights included) as in production.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { createUploadHandler, type UploadHandler, type UploadHandlerConfig } from '@upbeam/upload-server';
import { toNodeHandler } from '@upbeam/upload-server/node';
import { build } from 'esbuild';

const PAGE_DIR = join(import.meta.dirname, '..', 'page');

/** One POST the handler answered: its body's `_upload` or `_nextS3` marker, and the answer's status. */
export interface HandledRequest {
  marker: Record<string, unknown> | undefined;
  nextS3: Record<string, unknown> | undefined;
  status: number;
}

export interface InteropServer {
  /** `http://127.0.0.1:{port}`: `/{page}.html` and `/api/s3-upload`. */
  origin: string;
  storage: LocalS3;
  /** Every request the handler answered, in order. */
  handled: HandledRequest[];
  /** Replaces the handler's configuration; storage settings default to s3rver's. */
  configure(config: UploadHandlerConfig): void;
  close(): Promise<void>;
}

/** A page running `{script}.js` after `body`. */
const html = (script: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${script}</title></head>` +
  `<body>${body}<script type="module" src="/${script}.js"></script></body></html>`;

/** A page: its script's entry file, and the HTML body the script runs in. */
export interface InteropPage {
  entry: string;
  body: string;
}

/** The pages of `examples/interop`: next-s3-upload's React page, and the Uppy 5 page. */
export const INTEROP_PAGES: Record<string, InteropPage> = {
  'next-s3-upload': { entry: join(PAGE_DIR, 'next-s3-upload.tsx'), body: '<div id="root"></div>' },
  uppy: { entry: join(PAGE_DIR, 'uppy.ts'), body: '<input type="file" id="file">' },
};

/** Bundles each page's script (its imports resolved from the entry's own package) and writes its HTML. */
async function buildPages(outdir: string, pages: Record<string, InteropPage>): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, page.entry])),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    outdir,
    logLevel: 'error',
  });
  for (const [name, page] of Object.entries(pages)) await writeFile(join(outdir, `${name}.html`), html(name, page.body));
}

/** Builds and serves `pages` (`/{name}.html`), with s3rver and the handler. */
export async function startInteropServer(pages: Record<string, InteropPage> = INTEROP_PAGES): Promise<InteropServer> {
  const outdir = await mkdtemp(join(tmpdir(), 'upbeam-interop-'));
  await buildPages(outdir, pages);
  const storage = await startLocalS3();
  const handled: HandledRequest[] = [];
  // objectAcl 'none': next-s3-upload's PUT cannot send a signed x-amz-acl, and the handler refuses its requests
  // while it signs one (docs/guide/migrating.md). Apps that move their client to Upbeam keep the default.
  const base = { ...storage.handlerSettings, objectAcl: 'none' as const };
  let handler: UploadHandler = createUploadHandler(base);
  const recording: UploadHandler = async (request) => {
    const body = await request.clone().json().catch(() => ({}));
    const response = await handler(request);
    handled.push({ marker: body._upload, nextS3: body._nextS3, status: response.status });
    return response;
  };
  const api = toNodeHandler(recording);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/api/s3-upload') return void api(request, response);
    const file = normalize(path);
    readFile(join(outdir, file)).then(
      (bytes) => response.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html' : 'text/javascript' }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    storage,
    handled,
    configure(config) {
      handler = createUploadHandler({ ...base, ...config });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storage.close();
      await rm(outdir, { recursive: true, force: true });
    },
  };
}
