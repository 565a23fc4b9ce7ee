import { UPLOAD_STRATEGIES, type ChecksumAlgorithm, type RouteRules, type RouteRulesResponse, type UploadStrategy } from '@upbeam/upload-protocol';
import { UploadError } from './errors';
import type { BeforeUploadHook, BeforeUploadReturn } from './hooks';
import type { HookContext } from './upload-context';
import type { UploadRequestBody } from '@upbeam/upload-protocol';
import type { UploadCompleteContext } from './upload-completion';
import type { UploadPolicySettings } from './upload-policy';
import type { ObjectAcl } from './storage-config';
import type { UploadLimits } from './limit-store';

/**
 * One kind of upload (an avatar, a video, documents): the per-upload settings of `createUploadHandler`, for
 * the uploads that name this route. Credentials, bucket, region, endpoint and provider stay shared.
 * `ServerData` is what `onUploadComplete` returns: the page's `result.serverData` type. `Context` is what
 * `onBeforeUpload` returns: the type of `context` in `onUploadComplete` (see {@link defineRoute}).
 */
export interface UploadRoute<ServerData = unknown, Context extends BeforeUploadReturn = any> extends UploadPolicySettings {
  /**
   * Most files the page adds in one batch (`addFiles`, a drop). A rule of the page only: the client checks it
   * before any request, and the server cannot (each file is prepared on its own request, and a user can call
   * the endpoint without the page): it limits nothing a user could not do with several batches. Unset: no limit.
   */
  maxFiles?: number;
  /**
   * Whether the endpoint's GET lists this route's public rules (types, size, `maxFiles`, strategies). `false`:
   * never (an admin-only route stays unknown to other users; a page using it gets its rules another way);
   * a function: listed for the GETs it answers `true` for (e.g. the admin's session; a throw counts as
   * `false`). The route prepares uploads either way: authorize in `onBeforeUpload`.
   * @default true
   */
  listed?: boolean | ((request: Request) => boolean | Promise<boolean>);
  /** Strategies this route prepares; another answers 400 `INVALID_REQUEST`. @default both */
  strategies?: UploadStrategy[];
  /** As the handler's `keyPrefix`, for this route's keys. @default the handler's */
  keyPrefix?: string;
  /** As the handler's `key`. */
  key?: (body: UploadRequestBody, request: Request) => string | Promise<string>;
  /** As the handler's `objectAcl`. */
  objectAcl?: ObjectAcl;
  /** As the handler's `checksum`: the algorithm of this route's uploads (`false`: none). */
  checksum?: ChecksumAlgorithm | false;
  /**
   * Content-addressed keys: each object is stored under `{keyPrefix}sha256/{hex of its SHA-256}` (a multipart
   * upload's: `{hex}-{parts}`), the file name's extension kept (`.jpg`), so that the same bytes always get the
   * same key. Forces `checksum: 'sha256'` (the only algorithm that names content safely). The preparation asks
   * storage whether it already holds the key with that checksum (HEAD): if so it answers `alreadyStored: true`
   * with a receipt, and the browser sends nothing (the completion hook gets `deduplicated: true`). The key is
   * the handler's: `onBeforeUpload` may not return one (500 `INVALID_SETTINGS`, logged).
   * Presigned uploads only (single PUT and multipart): temporary credentials cannot bind the checksum a key is
   * named from. Refused when the handler is created (`INVALID_SETTINGS`) with a `checksum` other than
   * `'sha256'` or `strategies` naming `temporary-token`, and at the first request when the storage's provider
   * does not verify SHA-256.
   * @default false
   * @example
   * defineRoutes({ images: { contentAddressed: true, allowedContentTypes: ['image/*'] } });
   */
  contentAddressed?: boolean;
  /** As the handler's `expiresIn`, in seconds. */
  expiresIn?: number;
  /** As the handler's `tags`: signed into this route's presigned PUTs. */
  tags?: Record<string, string>;
  /** As the handler's `allowObjectTagging`: whether uploads of this route may set their own tags. */
  allowObjectTagging?: boolean;
  /**
   * As the handler's `limits`, for this route's uploads: they replace the handler's (`{}`: none) and are
   * counted apart from other routes' (the counters' scope is the route's name). Unset: the handler's, counted
   * together with every other route that sets none.
   */
  limits?: UploadLimits;
  /**
   * As the handler's `onBeforeUpload`; what it returns (e.g. `{ userId }`), but `key`, `metadata` and
   * `contentDisposition`, is the `context` of this route's `onUploadComplete`.
   */
  onBeforeUpload?: BeforeUploadHook<Context>;
  /**
   * As the handler's `onUploadComplete`, with `context`: what `onBeforeUpload` returned for this upload.
   * What it returns is this route's `serverData` on the page.
   */
  onUploadComplete?: (context: UploadCompleteContext<HookContext<Context>>) => ServerData | Promise<ServerData>;
}

/** Routes by name, as `defineRoutes` takes them. */
export type UploadRoutes = Record<string, UploadRoute<any, any>>;

/**
 * Declares one route with its types: what `onBeforeUpload` returns becomes the type of `context` in
 * `onUploadComplete` (TypeScript carries a type from one hook to the other only through a call like this
 * one). Returns `settings` unchanged. A route without hooks needs no `defineRoute`.
 *
 * @example
 * export const routes = defineRoutes({
 *   avatar: defineRoute({
 *     allowedContentTypes: ['image/*'],
 *     onBeforeUpload: async ({ request }) => ({ userId: (await requireUser(request)).id }),
 *     onUploadComplete: async ({ key, context }) => {
 *       await db.users.update(context.userId, { avatarKey: key }); // context: { userId: string }
 *       return { avatarKey: key };
 *     },
 *   }),
 * });
 */
export function defineRoute<Context extends BeforeUploadReturn = void, ServerData = never>(
  settings: UploadRoute<ServerData, Context>,
): UploadRoute<NoInfer<ServerData>, NoInfer<Context>> {
  // NoInfer: the types come from the hooks, never from where the route is used (`defineRoutes`' any).
  return settings;
}

/**
 * Declares the routes of one endpoint. Returns `routes` unchanged: it exists for the types, so that
 * `typeof routes` carries each route's name and `onUploadComplete` return type to the page
 * (`useS3Upload<typeof routes>({ route: 'avatar' })`, with `import type`).
 *
 * @example
 * export const routes = defineRoutes({
 *   avatar: { allowedContentTypes: ['image/*'], maxFileSize: 4 * 1024 * 1024, maxFiles: 1,
 *     onUploadComplete: ({ key }) => ({ avatarKey: key }) },
 *   documents: { allowedContentTypes: ['application/pdf'], maxFiles: 20 },
 * });
 */
export function defineRoutes<const R extends UploadRoutes>(routes: R): R {
  return routes;
}

/** Route names are what a URL path segment or a JSON key holds comfortably. */
const ROUTE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Checks route names and settings once, when the handler is created.
 * @throws {@link UploadError} `INVALID_SETTINGS` for no routes, a name not 1-64 of `[A-Za-z0-9_-]`, an
 *   unknown strategy, or a `contentAddressed` route whose `checksum` is not `'sha256'` or whose `strategies`
 *   name `temporary-token`.
 */
export function assertValidRoutes(routes: UploadRoutes): void {
  const names = Object.keys(routes);
  if (names.length === 0) throw new UploadError('INVALID_SETTINGS', '`routes` must hold at least one route.');
  for (const name of names) {
    if (!ROUTE_NAME.test(name)) {
      throw new UploadError('INVALID_SETTINGS', `Route name "${name}" must be 1-64 letters, digits, "_" or "-".`);
    }
    for (const strategy of routes[name]!.strategies ?? []) {
      if (!(UPLOAD_STRATEGIES as readonly string[]).includes(strategy)) {
        throw new UploadError('INVALID_SETTINGS', `Route "${name}": unknown strategy "${strategy}".`);
      }
    }
    const { contentAddressed, checksum, strategies } = routes[name]!;
    if (contentAddressed && strategies?.includes('temporary-token')) {
      throw new UploadError(
        'INVALID_SETTINGS',
        `Route "${name}": a content-addressed route takes presigned uploads only (temporary credentials cannot bind the checksum its keys are named from).`,
      );
    }
    if (contentAddressed && checksum !== undefined && checksum !== 'sha256') {
      throw new UploadError(
        'INVALID_SETTINGS',
        `Route "${name}": a content-addressed route names its keys from the SHA-256 of the bytes: set checksum: 'sha256' (or leave it unset), not ${JSON.stringify(checksum)}.`,
      );
    }
  }
}

/** Whether the GET of rules for `request` lists `route` (its `listed`; a throwing function: no). */
async function isListed(route: UploadRoute, request: () => Request): Promise<boolean> {
  const { listed = true } = route;
  if (typeof listed !== 'function') return listed;
  try {
    return (await listed(request())) === true;
  } catch {
    return false;
  }
}

/**
 * The GET of rules for `request`: each route's public rules ({@link publicRules}), but those its `listed`
 * keeps out for this request.
 */
export async function listedRules(routes: UploadRoutes, request: () => Request): Promise<RouteRulesResponse> {
  const entries = await Promise.all(
    Object.entries(routes).map(async ([name, route]) => ((await isListed(route, request)) ? [[name, publicRules(route)] as const] : [])),
  );
  return { routes: Object.fromEntries(entries.flat()) };
}

/** The public part of a route: what the GET of rules answers. */
export function publicRules(route: UploadRoute): RouteRules {
  return {
    ...(route.allowedContentTypes === undefined ? {} : { allowedContentTypes: [...route.allowedContentTypes] }),
    ...(route.maxFileSize === undefined ? {} : { maxFileSize: route.maxFileSize }),
    ...(route.maxFiles === undefined ? {} : { maxFiles: route.maxFiles }),
    strategies: [...(route.strategies ?? (route.contentAddressed ? ['presigned' as const] : UPLOAD_STRATEGIES))],
  };
}

/** The route a request body names, among `names`. @throws {@link UploadError} `UNKNOWN_ROUTE` (404). */
export function pickRoute(body: UploadRequestBody, names: ReadonlySet<string>): string {
  const { route } = body;
  if (typeof route === 'string' && names.has(route)) return route;
  if (route === undefined) throw new UploadError('UNKNOWN_ROUTE', 'The request names no upload route ("route").');
  // Only what was asked for is named, and only when it is short text: nothing of the configuration leaves.
  const asked = typeof route === 'string' && route.length <= 64 ? JSON.stringify(route) : 'asked for';
  throw new UploadError('UNKNOWN_ROUTE', `Unknown upload route ${asked}.`);
}
