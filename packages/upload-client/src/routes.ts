/**
 * The page's view of a server's routes: only types cross (`import type { routes }`), never server code.
 * `R` is `typeof routes` of `defineRoutes`; left out, it is the untyped default (any route name,
 * `serverData: unknown`).
 */
import type { AnyRoutes, RouteName, RouteServerData, UploadResult } from '@upbeam/upload-protocol';
import type { UploadOptions } from './types';

/** True when `R` names its routes (a server's `typeof routes`), false for the untyped default. */
type IsTyped<R extends AnyRoutes> = string extends RouteName<R> ? false : true;

/** True for the untyped default `R`: then the options may be left out. */
export type IsUntyped<R extends AnyRoutes> = string extends RouteName<R> ? true : false;

/** The `route` option: one of `R`'s names (required) with typed routes; any string, or none, without. */
export type RouteOption<R extends AnyRoutes, N extends RouteName<R>> = IsTyped<R> extends true ? { route: N } : { route?: string };

/** Upload options with the {@link RouteOption} of `R`. */
export type RouteUploadOptions<R extends AnyRoutes, N extends RouteName<R>> = Omit<UploadOptions, 'route'> & RouteOption<R, N>;

/** What an upload to route `N` of `R` resolves to: `serverData` typed as that route's `onUploadComplete` returns. */
export type RouteUploadResult<R extends AnyRoutes, N extends RouteName<R>> = IsTyped<R> extends true
  ? UploadResult<RouteServerData<R, N>>
  : UploadResult;

/** The `serverData` type of route `N` of `R` (`unknown` without typed routes). */
export type RouteResultData<R extends AnyRoutes, N extends RouteName<R>> = IsTyped<R> extends true ? RouteServerData<R, N> : unknown;
