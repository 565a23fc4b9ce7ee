/**
 * `pnpm dev` (and `npm run example` at the repository's root): the page with hot reload (Vite) and the
 * upload handler on the same origin (`PORT`, default 5173), on the embedded storage (`LOCAL_S3_PORT`,
 * default 4568) unless S3_UPLOAD_* are set. Prints where uploads go, then the URL, and nothing else unless
 * something goes wrong; a taken port is one line naming its variable; Ctrl-C stops both servers quietly.
 */
import { getRequestListener } from '@hono/node-server';
import { createUploadHandler } from '@upbeam/upload-server';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { createApp } from './app';
import { portFromEnv, PortTakenError } from './ports';
import { openStorage, type ExampleStorage } from './storage';

let storage: ExampleStorage | undefined;
let vite: ViteDevServer | undefined;

async function start(): Promise<string> {
  const port = portFromEnv('PORT', 5173);
  storage = await openStorage([`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
  const listener = getRequestListener(createApp({ upload: createUploadHandler(storage.config) }).fetch);
  const api: Plugin = {
    name: 'upbeam-example-api',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.startsWith('/api/')) void listener(req, res);
        else next();
      });
    },
  };
  vite = await createServer({
    root: new URL('..', import.meta.url).pathname,
    plugins: [api],
    server: { host: '127.0.0.1', port, strictPort: true },
    logLevel: 'warn',
    clearScreen: false,
  });
  await vite.listen().catch((error: unknown) => {
    throw PortTakenError.from(error, 'PORT', port);
  });
  return `http://127.0.0.1:${port}/`;
}

async function stop(code: number): Promise<never> {
  await Promise.allSettled([vite?.close(), storage?.close()]);
  process.exit(code);
}

process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

try {
  const url = await start();
  console.log(`Uploads go to ${storage!.description}.`);
  console.log(`Upbeam example: ${url}`);
} catch (error) {
  if (error instanceof PortTakenError) console.error(error.message);
  else console.error(error);
  await stop(1);
}
