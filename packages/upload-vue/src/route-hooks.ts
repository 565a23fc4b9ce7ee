import type { AnyRoutes, RouteName, RouteResultData } from '@upbeam/upload-client';
import type { MaybeRefOrGetter } from 'vue';
import { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from './use-s3-upload';

/**
 * `useS3Upload` bound to one server's routes `R`: the route name is inferred from the `route` option, so
 * `result.serverData` is that route's `onUploadComplete` return type, and a route name the server does not
 * have fails to compile. The same factory as React's (`createRouteHooks` of `@upbeam/upload-react`).
 */
export interface RouteHooks<R extends AnyRoutes> {
  /** {@link useS3Upload}, with `serverData` typed by the route named in `options.route` (required). */
  useS3Upload<N extends RouteName<R>>(options: MaybeRefOrGetter<UseS3UploadOptions<R, N>>): UseS3Upload<RouteResultData<R, N>>;
}

/**
 * The composables typed by a server's routes (`typeof routes` of `defineRoutes`, taken with `import type`: no
 * server code reaches the page). At runtime it returns `useS3Upload` itself.
 *
 * @example
 * // upload.ts
 * import type { routes } from '../server/upload-routes';
 * export const { useS3Upload } = createRouteHooks<typeof routes>();
 * // in a component's setup: `serverData` is the avatar route's `onUploadComplete` return type
 * const avatar = useS3Upload({ route: 'avatar' });
 */
export function createRouteHooks<R extends AnyRoutes>(): RouteHooks<R> {
  return { useS3Upload } as RouteHooks<R>;
}
