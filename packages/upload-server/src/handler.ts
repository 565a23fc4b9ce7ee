import { compileApp } from './app';
import { errorToAnswer } from './errors';
import type { UploadHandlerConfig } from './config';
import { fetchIncoming, withIncomingEntry, type IncomingHandler } from './incoming-request';
import { ok, toResponse, type JsonAnswer } from './json-answer';
import { readUploadRequest, type BodyAdmission } from './request-body';
import { createRouteEndpoint } from './route-endpoint';
import { listedRules, pickRoute, type UploadRoutes } from './routes';
import { countRefusal } from './telemetry';

/** A Fetch API handler: works as-is in Next.js App Router, Hono, Bun, Deno and workers. */
export type UploadHandler = (request: Request) => Promise<Response>;

/**
 * Creates the preparation endpoint, a Fetch `Request -> Response` handler the app mounts at
 * `/api/s3-upload` (the client's default). The browser POSTs `{ filename, filetype, filesize?, _upload }`
 * (`UploadRequestBody` of `@upbeam/upload-protocol`) and gets what it needs to send the file straight to
 * storage: a presigned PUT URL, temporary credentials for one object key, or the operations of a presigned
 * multipart upload; with `onUploadComplete`, it also takes the browser's report once the object is stored.
 * With `routes` (`defineRoutes`), each route's settings apply to the requests that name it, and a GET answers
 * the routes' public rules.
 *
 * Settings are read on the first request (a missing variable does not break a build that only imports the
 * route). A wrong or refused request gets a 4xx `{ error, code }` (codes in `UPLOAD_ERROR_STATUS`); any other
 * failure (missing settings, storage or STS errors, a throwing hook) is passed to `onError` and answered
 * with 500 `{ error: 'Internal Server Error' }`: storage and STS error text never reaches the browser.
 *
 * Telemetry: each operation is an OpenTelemetry span (`upbeam.prepare`, `upbeam.complete`, ...) and a few
 * metrics are counted (`upbeam.preparations`, `upbeam.refusals`, ...) through `@opentelemetry/api`, to the SDK
 * the app registers; without one, nothing is recorded. A span holds the object key (`upbeam.object.key`: the
 * default key ends with the file's name), never a presigned URL, header, credential, receipt, ticket or error
 * text (the Telemetry guide).
 *
 * The guides (getting started, strategies, routes, large files, the completion hook, security, telemetry): the
 * docs site's `docs/guide/`; the wire contract: docs/spec.md.
 * @throws {@link UploadError} `INVALID_SETTINGS` at once for empty `routes`, a route name that is not 1-64 of
 *   `[A-Za-z0-9_-]`, or an unknown strategy.
 *
 * @example
 * // app/api/s3-upload/route.ts (Next.js App Router)
 * import { createUploadHandler } from '@upbeam/upload-server';
 * export const POST = createUploadHandler({ allowedContentTypes: ['image/*'], maxFileSize: 10 * 1024 * 1024 });
 */
export function createUploadHandler<const R extends UploadRoutes = UploadRoutes>(config: UploadHandlerConfig & { routes?: R } = {}): UploadHandler {
  const answer = createAnswering(config);
  // The Fetch handler, and the same entry without a Request and a Response around it (`toNodeHandler`).
  return withIncomingEntry(async (request: Request) => toResponse(await answer(fetchIncoming(request))), answer);
}

/** The handler's logic: a request in, its JSON answer out (`incoming-request.ts`, `json-answer.ts`), on the compiled app. */
function createAnswering(config: UploadHandlerConfig & { routes?: UploadRoutes }): IncomingHandler {
  const app = compileApp(config);
  const { routes, onError } = app;
  if (routes === undefined) {
    const endpoint = createRouteEndpoint(app.table[0]!);
    return async (incoming) => {
      try {
        return await endpoint.handle(await readUploadRequest(incoming, endpoint.admitLargeBody), incoming);
      } catch (error) {
        return refusedOrFailed(error, onError);
      }
    };
  }
  const endpoints = new Map(app.table.map((route) => [route.name!, createRouteEndpoint(route)]));
  const names: ReadonlySet<string> = new Set(endpoints.keys());
  /** A large body is read on when its ticket is one of any route's; the route then checks it is its own. */
  const admitLargeBody: BodyAdmission = async (head) => {
    for (const endpoint of endpoints.values()) if (await endpoint.admitLargeBody(head)) return true;
    return false;
  };
  return async (incoming) => {
    try {
      // HEAD as GET: the runtime (or the node adapter) sends its headers without the body.
      if (incoming.method === 'GET' || incoming.method === 'HEAD') return ok(await listedRules(routes, () => incoming.request));
      const body = await readUploadRequest(incoming, admitLargeBody);
      return await endpoints.get(pickRoute(body, names))!.handle(body, incoming);
    } catch (error) {
      const answer = refusedOrFailed(error, onError);
      // With routes, GET answers too: a 405's `Allow` names it (RFC 9110 15.5.6).
      return answer.status === 405 ? { ...answer, headers: { allow: 'GET, HEAD, POST' } } : answer;
    }
  };
}

/**
 * The answer of a request that threw: a refusal is counted (`upbeam.refusals`; without a route when it came
 * before one was chosen: bad JSON, an unknown route), then `errorToAnswer`.
 */
function refusedOrFailed(error: unknown, onError: (error: unknown) => void): JsonAnswer {
  countRefusal(error, undefined);
  return errorToAnswer(error, onError);
}
