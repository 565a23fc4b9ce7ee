import { serveStatic } from '@hono/node-server/serve-static';
import type { UploadHandler } from '@upbeam/upload-server';
import { Hono } from 'hono';
import { newUserCookie, userOf } from './example-user';

/** What answers the example's `/api/` routes. */
export interface ExampleApi {
  /** The upload handler, at `/api/s3-upload` (POST; GET answers its routes' public rules, for `route` drop zones). */
  upload: UploadHandler;
  /**
   * A signed GET URL of an uploaded key for the signed-in user (`GET /api/object-url?key=`), or undefined to
   * refuse it (404): `user` is undefined for a request that is not signed in.
   */
  objectUrl?: (key: string, user: string | undefined) => Promise<string | undefined>;
}

/**
 * The example's server: the upload handler at `/api/s3-upload` and, in production mode, the built page.
 * The handler is a plain Fetch handler, so mounting it is one line in any router.
 */
export function createApp(options: ExampleApi & { staticRoot?: string }): Hono {
  const app = new Hono();
  // The example's sign-in (example-user.ts): a browser without the user cookie gets one with this answer.
  app.use('*', async (c, next) => {
    const signedIn = userOf(c.req.raw) !== undefined;
    await next();
    if (!signedIn) c.header('Set-Cookie', newUserCookie(), { append: true });
  });
  app.post('/api/s3-upload', (c) => options.upload(c.req.raw));
  app.get('/api/s3-upload', (c) => options.upload(c.req.raw));
  const { objectUrl } = options;
  if (objectUrl) {
    app.get('/api/object-url', async (c) => {
      const url = await objectUrl(c.req.query('key') ?? '', userOf(c.req.raw));
      return url === undefined ? c.json({ error: 'No such upload.' }, 404) : c.json({ url });
    });
  }
  if (options.staticRoot) app.use('/*', serveStatic({ root: options.staticRoot }));
  return app;
}
