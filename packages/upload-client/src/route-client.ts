import type { AnyRoutes, RouteName } from '@upbeam/upload-protocol';
import type { RouteOption, RouteUploadOptions, RouteUploadResult } from './routes';
import { uploadFile } from './upload-file';
import { UploadTracker, type UploadTrackerOptions } from './upload-tracker';

/**
 * `uploadFile` and `UploadTracker` bound to one server's routes `R`: the route name is inferred from the
 * `route` option, so `result.serverData` is that route's `onUploadComplete` return type with no second type
 * argument. (TypeScript infers no type argument of a call given others, so `uploadFile<typeof routes>(...)`
 * alone types `serverData` as the union of every route's.)
 */
export interface RouteClient<R extends AnyRoutes> {
  /** {@link uploadFile}, with `serverData` typed by the route named in `options.route`. */
  uploadFile<N extends RouteName<R>>(file: File, options: RouteUploadOptions<R, N>): Promise<RouteUploadResult<R, N>>;
  /** {@link UploadTracker}, with `serverData` typed by the route named in `options.route`. */
  UploadTracker: new <N extends RouteName<R>>(options: Omit<UploadTrackerOptions, 'route'> & RouteOption<R, N>) => UploadTracker<R, N>;
}

/**
 * The client's upload functions typed by a server's routes (`typeof routes` of `defineRoutes`, taken with
 * `import type`: no server code reaches the page). At runtime it returns `uploadFile` and `UploadTracker`
 * themselves.
 *
 * @example
 * import type { routes } from '../server/upload-routes';
 * const { uploadFile } = createRouteClient<typeof routes>();
 * const { serverData } = await uploadFile(file, { route: 'avatar' }); // the avatar route's type
 */
export function createRouteClient<R extends AnyRoutes>(): RouteClient<R> {
  return { uploadFile, UploadTracker } as RouteClient<R>;
}
