/**
 * `pnpm dev`: the page with hot reload (Vite) and the upload handler on the same origin, on the embedded
 * storage unless S3_UPLOAD_* are set. One process, one port (PORT, default 5173).
 */
import { getRequestListener } from '@hono/node-server';
import { createUploadHandler } from '@upbeam/upload-server';
import { createServer, type Plugin } from 'vite';
import { createApp } from './app';
import { openStorage } from './storage';

const port = Number(process.env.PORT ?? 5173);
const storage = await openStorage([`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
const app = createApp({ upload: createUploadHandler(storage.config) });
const listener = getRequestListener(app.fetch);

const api: Plugin = {
  name: 'upbeam-example-api',
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      if (req.url?.startsWith('/api/')) void listener(req, res);
      else next();
    });
  },
};

const vite = await createServer({
  root: new URL('..', import.meta.url).pathname,
  plugins: [api],
  server: { host: '127.0.0.1', port, strictPort: true },
});
await vite.listen();
console.log(`\n  Upbeam example: http://127.0.0.1:${port}/`);
console.log(`  Uploads go to the ${storage.description}\n`);

const stop = async () => {
  await vite.close();
  await storage.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
