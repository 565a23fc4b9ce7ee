/**
 * `pnpm start`: the built page (`pnpm build` first) and the upload handler, served by Hono on PORT
 * (default 3000), on the embedded storage unless S3_UPLOAD_* are set.
 */
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createUploadHandler } from '@upbeam/upload-server';
import { createApp } from './app';
import { openStorage } from './storage';

const port = Number(process.env.PORT ?? 3000);
const storage = await openStorage([`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
const staticRoot = fileURLToPath(new URL('../dist', import.meta.url));
const app = createApp({ upload: createUploadHandler(storage.config), staticRoot });
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => {
  console.log(`\n  Upbeam example: http://127.0.0.1:${port}/`);
  console.log(`  Uploads go to the ${storage.description}\n`);
});
