import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { S3Client } from '@aws-sdk/client-s3';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { createUploadHandler, type UploadHandler, type UploadHandlerConfig } from '@upbeam/upload-server';
import { createApp } from '../server/app';
import { uploadAsUser } from '../server/example-user';
import { objectUrlSigner } from '../server/object-url';

/** The built example page and its server on 127.0.0.1, with the embedded storage on another port. */
export interface RunningExample {
  /** Origin of the page, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  storage: LocalS3;
  /** An S3 client with the storage's own credentials, to read back what the browser stored. */
  s3: S3Client;
  /** Handler settings that reach the storage. */
  settings: UploadHandlerConfig;
  /** Replaces what answers `/api/s3-upload` (to test failures and timing); `undefined` restores the default. */
  setUploadHandler(handler: UploadHandler | undefined): void;
  /**
   * Holds every request whose path `matches` (e.g. a lazy chunk of the page) until `release()`; `held` lists
   * the paths waiting now. To see what the page does while a file of its own is still on the way.
   */
  holdRequests(matches: (path: string) => boolean): HeldRequests;
  close(): Promise<void>;
}

/** Requests that {@link RunningExample.holdRequests} holds. */
export interface HeldRequests {
  /** Paths of the held requests not released yet. */
  readonly held: readonly string[];
  /** Lets the held requests (and later ones) through; holds nothing more. */
  release(): void;
}

/**
 * Starts an example as a user would run it (`pnpm build && pnpm start`), on ports picked by the OS.
 * @param staticRoot - The built page to serve: a path, usually the example's `dist/`.
 */
export async function startExample(staticRoot: string): Promise<RunningExample> {
  let upload: UploadHandler = async () => new Response(null, { status: 503 });
  let objectUrl: (key: string, user: string | undefined) => Promise<string | undefined> = async () => undefined;
  const app = createApp({ upload: (request) => upload(request), staticRoot, objectUrl: (key, user) => objectUrl(key, user) });
  let hold: { matches: (path: string) => boolean; held: string[]; released: Promise<void> } | undefined;
  // Every argument goes through: the Node adapter passes its bindings (`incoming`, `outgoing`) after the request.
  const fetch: typeof app.fetch = (request, ...rest) => {
    const gate = hold;
    if (!gate) return app.fetch(request, ...rest);
    const path = new URL(request.url).pathname;
    if (!gate.matches(path)) return app.fetch(request, ...rest);
    gate.held.push(path);
    return gate.released.then(() => app.fetch(request, ...rest));
  };
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Another port than the page: the upload is cross-origin, so the bucket's CORS rule is exercised.
  const storage = await startLocalS3({ allowedOrigins: [origin] });
  // local-s3 refuses unsigned headers (test/curl-attacks.test.ts): the handlers skip that check, whose probe
  // would otherwise go through the tests' proxies among the page's storage requests and faults.
  const settings = { ...storage.handlerSettings, checkUnsignedHeaders: false };
  // As the example runs: each upload under its user's prefix (the page's cookie), which /api/object-url checks.
  const standard = createUploadHandler({ ...settings, stsClient: storage.stsClient, onBeforeUpload: uploadAsUser });
  objectUrl = objectUrlSigner(settings);
  upload = standard;
  const s3 = storage.createClient();
  return {
    origin,
    storage,
    s3,
    settings,
    setUploadHandler(handler) {
      upload = handler ?? standard;
    },
    holdRequests(matches) {
      let release!: () => void;
      const gate = { matches, held: [] as string[], released: new Promise<void>((resolve) => (release = resolve)) };
      hold = gate;
      return {
        held: gate.held,
        release() {
          if (hold === gate) hold = undefined;
          gate.held.length = 0;
          release();
        },
      };
    },
    async close() {
      s3.destroy();
      await new Promise((resolve) => server.close(resolve));
      await storage.close();
    },
  };
}
