/**
 * @module
 * `@upbeam/upload-server/next`: the upload handler as a Next.js route, for the App Router
 * (`app/api/s3-upload/route.ts`) and the Pages Router (`pages/api/s3-upload.ts`). The App Router speaks
 * Fetch, so its route is the handler itself; the Pages Router hands over Node's `req`/`res`, so its route
 * goes through the node adapter. Neither imports Next.js: the routes are plain functions Next.js calls.
 */
import { createUploadHandler, type UploadHandler, type UploadHandlerConfig, type UploadRoutes } from '../index';
import { toNodeHandler, type NodeHandlerOptions, type NodeUploadHandler } from './node';

/**
 * The HTTP method exports of an App Router route file: `POST` and `GET`. Next.js runs `GET` for a `HEAD` too,
 * answers `OPTIONS` itself (204 with `Allow`) and every other method with its own 405 (no body).
 */
export interface RouteHandlers {
  /** Prepares an upload: see `createUploadHandler`. */
  POST: UploadHandler;
  /**
   * The public rules of each route (`{ routes }`) with `routes`; without, the handler's 405
   * `{ error, code: 'METHOD_NOT_ALLOWED' }` with `Allow: POST` (as for a `HEAD` either way).
   */
  GET: UploadHandler;
}

/**
 * The preparation endpoint as a Next.js App Router route handler. Settings are read on the first request
 * (not while `next build` imports the route), from `config` and then the `S3_UPLOAD_*` env variables,
 * which Next.js loads from `.env.local`. The request body is read by the handler itself, capped at
 * `MAX_BODY_BYTES` (16 KiB; `MAX_COMPLETE_BODY_BYTES`, 1 MiB, for a multipart `complete`); answers and errors are those of `createUploadHandler`: 4xx `{ error, code }`,
 * any other failure 500 `{ error: 'Internal Server Error' }` (passed to `config.onError`).
 *
 * Methods: `POST` prepares; `GET` answers the routes' public rules with `routes` (the page's drop zone and
 * `fetchRouteRules` read them), and without `routes` the handler's 405 `{ error, code: 'METHOD_NOT_ALLOWED' }`
 * with `Allow: POST`. Next.js runs `GET` for a `HEAD` (that 405 too), answers `OPTIONS` itself (204, `Allow`)
 * and any other method with its own 405, without a body.
 *
 * Outside Next.js (`node:http`, Express), serve `createUploadHandler(config)` through `toNodeHandler` of
 * `@upbeam/upload-server/node` for both `GET` and `POST`: the one handler answers both (and every other method
 * with its 405). `toNodeHandler(GET)` and `toNodeHandler(POST)` of this function's result work too.
 *
 * Runs on the Node.js runtime, Next.js's default, and on the edge runtime (`runtime = 'edge'`: Next.js resolves
 * the package's `edge-light` build).
 *
 * @param config - Handler settings; every storage setting left out falls back to its `S3_UPLOAD_*` variable.
 * @returns `{ POST, GET }`, to be exported from the route file (`GET` answers the routes' public rules).
 *
 * @example
 * // app/api/s3-upload/route.ts
 * import { createRouteHandler } from '@upbeam/upload-server/next';
 *
 * export const { POST } = createRouteHandler({
 *   allowedContentTypes: ['image/*'],
 *   maxFileSize: 10 * 1024 * 1024, // bytes
 * });
 */
export function createRouteHandler<const R extends UploadRoutes = UploadRoutes>(
  config: UploadHandlerConfig & { routes?: R } = {},
): RouteHandlers {
  const handler = createUploadHandler(config);
  // A fresh arrow per route: Next.js may pass a second `context` argument, which the handler must not get.
  return { POST: (request) => handler(request), GET: (request) => handler(request) };
}

/**
 * The preparation endpoint as a Next.js Pages Router API route (`pages/api/s3-upload.ts`): the node adapter
 * (`toNodeHandler` of `@upbeam/upload-server/node`) over `createUploadHandler(config)`.
 *
 * Turn off Next.js's body parser in the same file, with a literal `config` export:
 * `export const config = { api: { bodyParser: false } };`. Next.js reads it by static analysis when it
 * builds: it must be an object literal in the route file itself (a re-exported or computed value fails
 * `next build` under Turbopack, hence no ready-made `config` to import). Then this route reads the raw body itself,
 * streaming and capped at 1 MiB (`options.maxBodyBytes`; the handler refuses more than 16 KiB except for a
 * multipart `complete`), and answers an oversized one with the handler's 413 `{ error, code: 'PAYLOAD_TOO_LARGE' }`. Left on, Next.js buffers and parses up to its own
 * 1 MB limit first (answering a larger body with a plain-text 413) and the route re-serializes the parsed
 * JSON: it works, with a weaker limit and one more parse.
 *
 * Answers and errors are those of `createUploadHandler` (4xx `{ error, code }`, other failures 500
 * `{ error: 'Internal Server Error' }`), plus the node adapter's 413; every method but POST gets 405.
 *
 * @param config - Handler settings; every storage setting left out falls back to its `S3_UPLOAD_*` variable.
 * @param options - Node adapter options: `maxBodyBytes` (default 1048576), `trustProxy` (default false), `onError`.
 * @returns A `(req, res) => Promise<void>` API route, to be the file's default export.
 *
 * @example
 * // pages/api/s3-upload.ts
 * import { createPagesHandler } from '@upbeam/upload-server/next';
 *
 * export default createPagesHandler({ allowedContentTypes: ['image/*'] });
 *
 * // The route reads and caps the body itself (413 in the handler's JSON shape).
 * export const config = { api: { bodyParser: false } };
 */
export function createPagesHandler<const R extends UploadRoutes = UploadRoutes>(
  config: UploadHandlerConfig & { routes?: R } = {},
  options?: NodeHandlerOptions,
): NodeUploadHandler {
  return toNodeHandler(createUploadHandler(config), options);
}
