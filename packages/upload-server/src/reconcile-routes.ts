/**
 * Which route an object belongs to, decided from its key alone (the reconciliation has no request to read a
 * route name from): the route whose `keyPrefix` is the longest that starts the key. Two routes with the same
 * prefix cannot be told apart: their objects are left alone and listed as `ambiguous`.
 */
import type { RouteConfig, UploadHandlerConfig } from './config';
import { INTERNAL_PREFIX } from './completion-marker';
import { DEFAULT_KEY_PREFIX, normalizeKeyPrefix } from './object-key';
import { assertValidRoutes, type UploadRoutes } from './routes';

/** One route as the reconciliation sees it: its name (undefined without routes), prefix and settings. */
export interface PrefixedRoute {
  name: string | undefined;
  keyPrefix: string;
  config: RouteConfig;
}

/** The owner of a key: one route, several with the same prefix, or none (outside every prefix). */
export type KeyOwner<R extends PrefixedRoute = PrefixedRoute> = { route: R } | { ambiguous: string[] } | undefined;

/**
 * The handler's routes (or its one default route), each with its settings over the shared ones: the one place
 * they are merged (the app's route table, `app.ts`, is built on it).
 */
export function prefixedRoutes(config: UploadHandlerConfig & { routes?: UploadRoutes }): PrefixedRoute[] {
  const { routes, ...shared } = config;
  const prefixOf = (own: string | undefined) => normalizeKeyPrefix(own ?? shared.keyPrefix ?? DEFAULT_KEY_PREFIX);
  if (routes === undefined) return [{ name: undefined, keyPrefix: prefixOf(undefined), config: shared }];
  assertValidRoutes(routes);
  return Object.entries(routes).map(([name, route]) => ({ name, keyPrefix: prefixOf(route.keyPrefix), config: { ...shared, ...route } }));
}

/**
 * The prefixes to list so that every route's keys are listed once: sorted, without a prefix that another
 * one in the set starts (its keys are listed with the shorter one). The ranges they cover are disjoint and
 * in key order, so one key marks how far a listing got across all of them.
 */
export function listingPrefixes(prefixes: readonly string[]): string[] {
  const sorted = [...new Set(prefixes)].sort();
  return sorted.filter((prefix) => !sorted.some((other) => other !== prefix && prefix.startsWith(other)));
}

/** The route a key belongs to: the longest prefix that starts it; equal longest prefixes are ambiguous. */
export function ownerOfKey<R extends PrefixedRoute>(key: string, routes: readonly R[]): KeyOwner<R> {
  let best: R[] = [];
  for (const route of routes) {
    if (!key.startsWith(route.keyPrefix)) continue;
    if (best.length === 0 || route.keyPrefix.length > best[0]!.keyPrefix.length) best = [route];
    else if (route.keyPrefix.length === best[0]!.keyPrefix.length) best.push(route);
  }
  if (best.length === 0) return undefined;
  return best.length === 1 ? { route: best[0]! } : { ambiguous: best.map((route) => route.name ?? '') };
}

/**
 * The handler's own objects: completion markers and upload records (`.upbeam/`, reached when a prefix is `''`) and the doctor's
 * probes (`{keyPrefix}upbeam-doctor-*`, deleted by the doctor, left behind only when it was stopped).
 */
export function isInternalKey(key: string, keyPrefix: string): boolean {
  return key.startsWith(INTERNAL_PREFIX) || key.startsWith(`${keyPrefix}upbeam-doctor-`);
}
