/**
 * The page's view of a server's routes: only types cross (`import type { routes }`), never server code.
 * `R` is `typeof routes` of `defineRoutes`; left out, it is the untyped default (any route name,
 * `serverData: unknown`).
 */
import type { AnyRoutes, RouteName, RouteServerData, UploadResult } from '@upbeam/upload-protocol';
import type { UploadOptions } from './types';

// `string extends RouteName<R>` holds for the untyped default `R` only (any string is a route name there), not
// for a server's `typeof routes`, which names its routes: each type below tells the two apart that way.

/** The `route` option: one of `R`'s names (required) with typed routes; any string, or none, without. */
export type RouteOption<R extends AnyRoutes, N extends RouteName<R>> = string extends RouteName<R> ? { route?: string } : { route: N };

/** Upload options with the {@link RouteOption} of `R`. */
export type RouteUploadOptions<R extends AnyRoutes, N extends RouteName<R>> = Omit<UploadOptions, 'route'> & RouteOption<R, N>;

/** What an upload to route `N` of `R` resolves to: `serverData` typed as that route's `onUploadComplete` returns. */
export type RouteUploadResult<R extends AnyRoutes, N extends RouteName<R>> = string extends RouteName<R>
  ? UploadResult
  : UploadResult<RouteServerData<R, N>>;

/** The `serverData` type of route `N` of `R` (`unknown` without typed routes). */
export type RouteResultData<R extends AnyRoutes, N extends RouteName<R>> = string extends RouteName<R> ? unknown : RouteServerData<R, N>;
