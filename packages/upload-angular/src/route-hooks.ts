import type { AnyRoutes, RouteName, RouteResultData } from '@upbeam/upload-client';
import { injectS3Upload, type S3Upload, type S3UploadOptions } from './inject-s3-upload.js';

/**
 * `injectS3Upload` bound to one server's routes `R`: the route name is inferred from the `route` option, so
 * `result.serverData` is that route's `onUploadComplete` return type, and a route name the server does not
 * have fails to compile. The same factory as React's, Vue's and Svelte's (`createRouteHooks`).
 */
export interface RouteHooks<R extends AnyRoutes> {
  /** {@link injectS3Upload}, with `serverData` typed by the route named in `options.route` (required). */
  injectS3Upload<N extends RouteName<R>>(options: S3UploadOptions<R, N>): S3Upload<RouteResultData<R, N>>;
}

/**
 * The functions typed by a server's routes (`typeof routes` of `defineRoutes`, taken with `import type`: no
 * server code reaches the page). At runtime it returns `injectS3Upload` itself.
 *
 * @example
 * // upload.ts
 * import type { routes } from '../server/upload-routes';
 * export const { injectS3Upload } = createRouteHooks<typeof routes>();
 * // in a component: `serverData` is the avatar route's `onUploadComplete` return type
 * readonly avatar = injectS3Upload({ route: 'avatar' });
 */
export function createRouteHooks<R extends AnyRoutes>(): RouteHooks<R> {
  return { injectS3Upload } as RouteHooks<R>;
}
