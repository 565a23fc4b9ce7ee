import { createUploadHandler } from '@upbeam/upload-server';
import type { ExampleApi } from './app';
import { uploadAsUser } from './example-user';
import { objectUrlSigner } from './object-url';
import { portFromEnv, PortTakenError } from './ports';
import { openStorage, type ExampleStorage } from './storage';

/** A server an example started, to close on Ctrl-C. */
export interface RunningServer {
  close(): Promise<void>;
}

/**
 * How an example serves its page: on `port` (127.0.0.1), with `api` answering `/api/s3-upload` and
 * `/api/object-url` (signed GET URLs of the private bucket's uploads, each user's own only).
 */
export type ServePage = (port: number, api: ExampleApi) => Promise<RunningServer>;

/**
 * Runs an example from the command line: the page on `PORT` (default `defaultPort`), served by `serve`, on
 * the storage of {@link openStorage} (the embedded one allows the page's origin). Prints where uploads go,
 * then the URL, and nothing else unless something goes wrong; a taken port is one line naming its
 * variable, and the process exits with 1; SIGINT and SIGTERM stop both servers quietly (exit 0).
 *
 * @param root - The example's directory (`file:` URL ending in `/`); the embedded storage keeps objects in its `.data/s3`.
 */
export async function runExample(root: URL, defaultPort: number, serve: ServePage): Promise<void> {
  let storage: ExampleStorage | undefined;
  let server: RunningServer | undefined;

  const stop = async (code: number): Promise<never> => {
    await Promise.allSettled([server?.close(), storage?.close()]);
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    const port = portFromEnv('PORT', defaultPort);
    storage = await openStorage(root, [`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
    const upload = createUploadHandler({ ...storage.config, onBeforeUpload: uploadAsUser });
    server = await serve(port, { upload, objectUrl: objectUrlSigner(storage.config) });
    console.log(`Uploads go to ${storage.description}.`);
    console.log(`Upbeam example: http://127.0.0.1:${port}/`);
  } catch (error) {
    if (error instanceof PortTakenError) console.error(error.message);
    else console.error(error);
    await stop(1);
  }
}
