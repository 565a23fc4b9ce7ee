/**
 * @module
 * `pnpm dev` of a Vite example (and `npm run example` at the repository's root): the page with hot reload
 * (Vite, with the example's own `vite.config.ts`) and the upload handler on the same origin (`PORT`, default
 * 5173), on the embedded storage (`LOCAL_S3_PORT`, default 4568) unless S3_UPLOAD_* are set.
 */
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createServer, type Plugin } from 'vite';
import { createApp } from './app';
import { newUserCookie, userOfCookies } from './example-user';
import { PortTakenError } from './ports';
import { runExample } from './run-example';

/**
 * Serves the example in `root` in development mode until SIGINT or SIGTERM; see {@link runExample} for
 * what it prints and how it stops.
 *
 * @param root - The example's directory (`file:` URL ending in `/`), where its `index.html` and `vite.config.ts` are.
 * @example
 * await runDevServer(new URL('..', import.meta.url)); // in the example's server/dev.ts
 */
export function runDevServer(root: URL): Promise<void> {
  return runExample(root, 5173, async (port, handlers) => {
    const listener = getRequestListener(createApp(handlers).fetch);
    const api: Plugin = {
      name: 'upbeam-example-api',
      configureServer(server) {
        server.middlewares.use((req, res, next) => {
          if (req.url?.startsWith('/api/')) return void listener(req, res);
          // The page, served by Vite, signs the browser in as the app's answers do (example-user.ts).
          if (!userOfCookies(req.headers.cookie)) res.setHeader('Set-Cookie', newUserCookie());
          next();
        });
      },
    };
    const vite = await createServer({
      root: fileURLToPath(root),
      plugins: [api],
      server: { host: '127.0.0.1', port, strictPort: true },
      logLevel: 'warn',
      clearScreen: false,
    });
    await vite.listen().catch(async (error: unknown) => {
      await vite.close();
      throw PortTakenError.from(error, 'PORT', port);
    });
    return vite;
  });
}
