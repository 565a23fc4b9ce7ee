/**
 * @module
 * `pnpm start` of a Vite example: the built page (`pnpm build` first) and the upload handler, served by
 * Hono on `PORT` (default 3000), on the embedded storage (`LOCAL_S3_PORT`, default 4568) unless
 * S3_UPLOAD_* are set.
 */
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app';
import { PortTakenError } from './ports';
import { runExample } from './run-example';

/**
 * Serves the example in `root`, built, until SIGINT or SIGTERM; see {@link runExample} for what it prints
 * and how it stops.
 *
 * @param root - The example's directory (`file:` URL ending in `/`); the page is its `dist/`.
 * @example
 * await runProductionServer(new URL('..', import.meta.url)); // in the example's server/start.ts
 */
export function runProductionServer(root: URL): Promise<void> {
  return runExample(root, 3000, async (port, handlers) => {
    const app = createApp({ ...handlers, staticRoot: fileURLToPath(new URL('dist', root)) });
    const server = await new Promise<ServerType>((resolve, reject) => {
      const started = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(started));
      started.once('error', (error) => reject(PortTakenError.from(error, 'PORT', port)));
    });
    return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  });
}
