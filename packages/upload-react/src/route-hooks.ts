import type { AnyRoutes, RouteName, RouteResultData } from '@upbeam/upload-client';
import { useDropZone, type DropZone, type DropZoneOptions } from './use-drop-zone';
import { useS3Upload, type UseS3Upload, type UseS3UploadOptions } from './use-s3-upload';

/**
 * `useS3Upload` and `useDropZone` bound to one server's routes `R`: the route name is inferred from the
 * `route` option, so `result.serverData` is that route's `onUploadComplete` return type with no second type
 * argument, and a route name the server does not have fails to compile. (TypeScript infers no type argument
 * of a call given others, so `useS3Upload<typeof routes>({ route })` alone types `serverData` as the union of
 * every route's.)
 */
export interface RouteHooks<R extends AnyRoutes> {
  /** {@link useS3Upload}, with `serverData` typed by the route named in `options.route`. */
  useS3Upload<N extends RouteName<R>>(options: UseS3UploadOptions<R, N>): UseS3Upload<RouteResultData<R, N>>;
  /** {@link useDropZone}, with `route` one of `R`'s names. */
  useDropZone(options: Omit<DropZoneOptions, 'route'> & { route?: RouteName<R> }): DropZone;
}

/**
 * The hooks typed by a server's routes (`typeof routes` of `defineRoutes`, taken with `import type`: no
 * server code reaches the page). At runtime it returns `useS3Upload` and `useDropZone` themselves.
 *
 * @example
 * // lib/upload.ts
 * import type { routes } from '../server/upload-routes';
 * export const { useS3Upload, useDropZone } = createRouteHooks<typeof routes>();
 * // in a component: `serverData` is the avatar route's `onUploadComplete` return type
 * const avatar = useS3Upload({ route: 'avatar' });
 */
export function createRouteHooks<R extends AnyRoutes>(): RouteHooks<R> {
  return { useS3Upload, useDropZone } as RouteHooks<R>;
}
