import type { AnyRoutes, RouteName, RouteResultData } from '@upbeam/upload-client';
import { createS3Upload, type S3Upload, type S3UploadOptions } from './create-s3-upload';

/**
 * `createS3Upload` bound to one server's routes `R`: the route name is inferred from the `route` option, so
 * `result.serverData` is that route's `onUploadComplete` return type, and a route name the server does not
 * have fails to compile. The same factory as React's (`createRouteHooks` of `@upbeam/upload-react`).
 */
export interface RouteHooks<R extends AnyRoutes> {
  /** {@link createS3Upload}, with `serverData` typed by the route named in `options.route` (required). */
  createS3Upload<N extends RouteName<R>>(options: S3UploadOptions<R, N> | (() => S3UploadOptions<R, N>)): S3Upload<RouteResultData<R, N>>;
}

/**
 * The primitives typed by a server's routes (`typeof routes` of `defineRoutes`, taken with `import type`: no
 * server code reaches the page). At runtime it returns `createS3Upload` itself.
 *
 * @example
 * // upload.ts
 * import type { routes } from '../server/upload-routes';
 * export const { createS3Upload } = createRouteHooks<typeof routes>();
 * // in a component: `serverData` is the avatar route's `onUploadComplete` return type
 * const avatar = createS3Upload({ route: 'avatar' });
 */
export function createRouteHooks<R extends AnyRoutes>(): RouteHooks<R> {
  return { createS3Upload } as RouteHooks<R>;
}
