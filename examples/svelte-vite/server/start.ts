/**
 * `pnpm start`: the built page (`pnpm build` first) and the upload handler, served by Hono on `PORT`
 * (default 3000), on the embedded storage (`LOCAL_S3_PORT`, default 4568) unless S3_UPLOAD_* are set.
 */
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createUploadHandler } from '@upbeam/upload-server';
import { createApp } from './app';
import { portFromEnv, PortTakenError } from './ports';
import { openStorage, type ExampleStorage } from './storage';

let storage: ExampleStorage | undefined;
let server: ServerType | undefined;

async function start(): Promise<string> {
  const port = portFromEnv('PORT', 3000);
  storage = await openStorage([`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
  const staticRoot = fileURLToPath(new URL('../dist', import.meta.url));
  const app = createApp({ upload: createUploadHandler(storage.config), staticRoot });
  await new Promise<void>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve());
    server.once('error', (error) => reject(PortTakenError.from(error, 'PORT', port)));
  });
  return `http://127.0.0.1:${port}/`;
}

async function stop(code: number): Promise<never> {
  await Promise.allSettled([
    new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined))),
    storage?.close(),
  ]);
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
