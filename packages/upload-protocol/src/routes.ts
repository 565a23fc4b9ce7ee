import type { UploadStrategy } from './messages';

/**
 * The public rules of one upload route, as the endpoint's GET answers them: what the page may check before
 * any request. Nothing secret: no hook, key, prefix or credential.
 */
export interface RouteRules {
  /** Content types a file may declare (`image/*`, `application/pdf`); absent: any type. */
  allowedContentTypes?: string[];
  /** Largest file, in bytes; absent: no limit. */
  maxFileSize?: number;
  /** Most files in one batch the page adds (checked by the client only); absent: no limit. */
  maxFiles?: number;
  /** Strategies the route prepares. */
  strategies: UploadStrategy[];
}

/** The answer of a GET on an endpoint with routes: each route's {@link RouteRules}, by route name. */
export interface RouteRulesResponse {
  routes: Record<string, RouteRules>;
}

/**
 * What the page's types need of a server's routes (`typeof routes` of `defineRoutes`): route names, and what
 * each route's `onUploadComplete` returns. Only a type crosses from server to page.
 */
export type AnyRoutes = Record<string, object>;

/** The route names of `R` (`'avatar' | 'video'`). */
export type RouteName<R extends AnyRoutes> = keyof R & string;

/**
 * What route `N` of `R` returns from `onUploadComplete` (awaited): the result's `serverData` type; `never`
 * (no `serverData`) for a route without the hook.
 */
export type RouteServerData<R extends AnyRoutes, N extends RouteName<R>> = N extends unknown
  ? R[N] extends { onUploadComplete?: infer Hook }
    ? NonNullable<Hook> extends (...args: never[]) => infer Data
      ? Awaited<Data>
      : never
    : never
  : never;
