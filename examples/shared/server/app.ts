import { serveStatic } from '@hono/node-server/serve-static';
import type { UploadHandler } from '@upbeam/upload-server';
import { Hono } from 'hono';

/**
 * The example's server: the upload handler at `/api/s3-upload` and, in production mode, the built page.
 * The handler is a plain Fetch handler, so mounting it is one line in any router.
 */
export function createApp(options: { upload: UploadHandler; staticRoot?: string }): Hono {
  const app = new Hono();
  app.post('/api/s3-upload', (c) => options.upload(c.req.raw));
  if (options.staticRoot) app.use('/*', serveStatic({ root: options.staticRoot }));
  return app;
}
