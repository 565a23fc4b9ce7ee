/**
 * The composition root: a handler's configuration compiled once into one app that the handler, the
 * reconciliation, storage events, the doctor and object access all read. It holds the route table (each route's
 * settings merged over the shared ones, here only: `prefixedRoutes`), the services every route shares (one S3
 * client, one URL signer and one STS client per distinct connection: one for the app, since a route changes none
 * of them), each route's services on top of them (`route-services.ts`), and the one `onError`. Nothing is built
 * and no setting is read until first asked for: settings on the first request, the SDK on first use.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { HandlerConfig, UploadHandlerConfig } from './config';
import type { Env } from './env';
import { logUnexpectedError } from './errors';
import { ownerOfKey, prefixedRoutes, type KeyOwner, type PrefixedRoute } from './reconcile-routes';
import { createRouteServices, type RouteServices } from './route-services';
import type { UploadRoutes } from './routes';
import { processEnv, type ResolvedStorageSettings } from './settings';
import { createSharedServices, type SharedServices } from './shared-services';
import { createRouteLimits } from './upload-limits';

/** One route of the app: its name (undefined without routes), key prefix, settings and services. */
export interface AppRoute extends PrefixedRoute {
  services: RouteServices;
}

/** A handler's configuration, compiled: see the module's comment. */
export interface UploadApp {
  /** The settings every route shares (the config without `routes`). */
  shared: UploadHandlerConfig;
  /** The routes as configured (`defineRoutes`), for the GET of their public rules; undefined without routes. */
  routes: UploadRoutes | undefined;
  /** Each route (or the one default route without routes), its settings merged over the shared ones. */
  table: readonly AppRoute[];
  /** The route of this name (with routes only). */
  route(name: string): AppRoute | undefined;
  /** The route a key belongs to: the longest key prefix that starts it (`reconcile-routes.ts`). */
  ownerOf(key: string): KeyOwner<AppRoute>;
  /** Where settings the config leaves out are read: `env`, else `process.env`. */
  env(): Env;
  /** The shared storage settings, resolved on first use. @throws `MISSING_SETTINGS` / `INVALID_SETTINGS` */
  settings(): ResolvedStorageSettings;
  /** The shared S3 client, built on first use. */
  client(): Promise<S3Client>;
  services: SharedServices;
  /** Receives every unexpected error: the config's `onError`, else one line on the console. */
  onError: (error: unknown) => void;
  /** Destroys the S3 clients built so far: for a run that ends (reconcile, storage events, the doctor). */
  destroy(): void;
}

/**
 * Compiles `config` into its app.
 * @throws {@link UploadError} `INVALID_SETTINGS` at once for empty `routes`, a route name that is not 1-64 of
 *   `[A-Za-z0-9_-]`, or an unknown strategy (`assertValidRoutes`); invalid `limits` (`createRouteLimits`).
 */
export function compileApp(config: HandlerConfig): UploadApp {
  const { routes, ...shared } = config;
  const onError = config.onError ?? logUnexpectedError;
  const services = createSharedServices();
  const table: AppRoute[] = prefixedRoutes(config).map((route) => {
    const limits = createRouteLimits(config, route.name, route.config, onError);
    return { ...route, services: createRouteServices(route.config, route.name, { shared: services, onError, limits }) };
  });
  const byName = new Map(table.map((route) => [route.name, route]));
  const env = () => config.env ?? processEnv();
  let settings: ResolvedStorageSettings | undefined;
  const sharedSettings = () => (settings ??= services.settings(shared));
  return {
    shared,
    routes,
    table,
    route: (name) => (routes === undefined ? undefined : byName.get(name)),
    ownerOf: (key) => ownerOfKey(key, table),
    env,
    settings: sharedSettings,
    client: () => services.storage(sharedSettings()).client(),
    services,
    onError,
    destroy: () => services.destroy(),
  };
}
