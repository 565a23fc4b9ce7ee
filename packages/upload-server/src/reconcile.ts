import type { S3Client, _Object } from '@aws-sdk/client-s3';
import { createMarkerStore, idempotencyKeyOf, markerKey } from './completion-marker';
import { isUploadError } from './errors';
import type { UploadHandlerConfig } from './handler';
import { isInternalKey, listingPrefixes, ownerOfKey, prefixedRoutes, type PrefixedRoute } from './reconcile-routes';
import type { UploadRoutes } from './routes';
import { loadS3 } from './sdk';
import { processEnv, resolveStorageSettings } from './settings';
import { createStorageClient } from './storage-client';
import { createCompletion, type Completion } from './upload-completion';
import { RECEIPT_TTL_SECONDS } from './upload-receipt';

/** Options of {@link reconcileUploads}. */
export interface ReconcileOptions {
  /**
   * Only objects stored at least this long ago, in seconds: a younger one may still be reported by its page.
   * The default is the lifetime of a single PUT's receipt: after it, no page can report the object any more.
   * @default 7200
   */
  olderThanSeconds?: number;
  /** Only list and read: run no hook, claim, delete or write anything. @default true */
  dryRun?: boolean;
  /**
   * Most storage requests made (list pages, marker reads, and per completed object its HEAD, claim and answer).
   * A unit of work starts only when the requests it may take still fit.
   * @default 1000
   */
  maxRequests?: number;
  /** Start no new unit of work (a list page, an object) after this long, in seconds; a running hook is awaited. @default 25 */
  maxSeconds?: number;
  /** Keys per list page (ListObjectsV2 `MaxKeys`), 1 to 1000. @default 1000 */
  pageSize?: number;
  /** Continue after this key (the `lastKey` of a run a bound stopped). */
  startAfter?: string;
}

/** What happened to one object that had no completion record. */
export interface ReconciledObject {
  key: string;
  /** The route it belongs to (by key prefix); absent without routes. */
  route?: string;
  /** Listed size, in bytes. */
  size: number;
  /** Listed Last-Modified (ISO 8601). */
  lastModified: string;
  /**
   * `unreported`: found with no completion record (dry run: nothing done). `completed`: the hook ran now.
   * `recorded`: a report completed it meanwhile (the hook did not run again). `refused`: the checks or the
   * hook refused it (`code`, `error`; too large or of a type not allowed: deleted, as on a report).
   * `failed`: an unexpected error (`error`; passed to `onError`): a later run tries again. `ambiguous`: under
   * the same longest prefix as another route (`routes`): left alone.
   */
  outcome: 'unreported' | 'completed' | 'recorded' | 'refused' | 'failed' | 'ambiguous';
  code?: string;
  error?: string;
  /** The routes that share the key's prefix (`ambiguous`). */
  routes?: string[];
}

/** The report of one {@link reconcileUploads} run: JSON-serialisable. */
export interface ReconcileReport {
  dryRun: boolean;
  /** Whether every prefix was listed to its end; false when `maxRequests` or `maxSeconds` stopped the run. */
  finished: boolean;
  stoppedBy?: 'maxRequests' | 'maxSeconds';
  /** The last key looked at: pass it as `startAfter` to continue a stopped run. */
  lastKey?: string;
  /** Storage requests made. */
  requests: number;
  /** Objects listed under the prefixes, by what was done with them. */
  counts: {
    listed: number;
    /** The handler's own objects (completion markers, doctor probes). */
    internal: number;
    /** Younger than `olderThanSeconds`. */
    recent: number;
    /** Of a route without `onUploadComplete`, or outside every route's prefix. */
    noHook: number;
    /** With a completion record (answered, or a claim whose hook is running). */
    recorded: number;
    /** With no completion record: listed in `objects`. */
    unrecorded: number;
  };
  /** Every object with no completion record, and what was done with it. */
  objects: ReconciledObject[];
}

/** Requests one object's completion may take: its marker read, HEAD, marker read, claim, answer (or a DELETE). */
const COMPLETION_REQUESTS = 6;

/**
 * Finds the uploads the server never heard of and completes them: lists the objects under the key prefixes
 * of the routes that have `onUploadComplete` (ListObjectsV2, in pages), skips the handler's own objects and
 * those younger than `olderThanSeconds`, reads each one's completion record (the marker a page's report
 * writes, `.upbeam/completions/`), and for those without one runs the route's completion as a report does:
 * HEAD, the `maxFileSize` / `allowedContentTypes` checks (a breaking object is deleted), the claim, then
 * `onUploadComplete` once with `source: 'reconcile'` and no `request`. A page that reports the same object
 * at the same moment meets the same marker: the hook runs once either way. Dry run by default.
 *
 * The route of an object is read from its key: the route whose `keyPrefix` is the longest that starts it.
 * Routes with the same prefix cannot be told apart: their objects are listed as `ambiguous` and left alone
 * (give each route its own `keyPrefix`).
 *
 * Bounded: starts no list page or object once `maxRequests` requests would be passed or `maxSeconds` have
 * gone by; the report then has `finished: false` and a `lastKey` to continue from. The server's credentials
 * need `s3:ListBucket` besides what a completion needs (`s3:GetObject`, `s3:PutObject`, `s3:DeleteObject`).
 *
 * @param config the handler's configuration (what `createUploadHandler` takes, with its `routes`).
 * @throws {@link UploadError} `MISSING_SETTINGS` / `INVALID_SETTINGS` as `createUploadHandler` would; a
 *   failed list request (the run cannot go on). A failed object is reported (`failed`), not thrown.
 * @example
 * // A cron job: complete what pages did not report, every hour.
 * const report = await reconcileUploads(uploadConfig, { dryRun: false });
 * if (report.objects.some((object) => object.outcome === 'failed')) process.exitCode = 1;
 */
export async function reconcileUploads(config: UploadHandlerConfig & { routes?: UploadRoutes }, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const started = Date.now();
  const dryRun = options.dryRun ?? true;
  const olderThanMs = (options.olderThanSeconds ?? RECEIPT_TTL_SECONDS) * 1000;
  const maxRequests = options.maxRequests ?? 1000;
  const maxMs = (options.maxSeconds ?? 25) * 1000;
  const pageSize = Math.min(Math.max(Math.floor(options.pageSize ?? 1000), 1), 1000);
  const log = config.onError ?? ((error: unknown) => console.error('[upbeam] reconcile failed for an object:', error));

  const routes = prefixedRoutes(config);
  const settings = resolveStorageSettings(config, config.env ?? processEnv());
  const client = await createStorageClient(settings);
  let requests = 0;
  client.middlewareStack.add((next) => (args) => ((requests += 1), next(args)), { step: 'initialize', name: 'upbeamCountRequests' });
  const markers = createMarkerStore(client, settings.bucket, Date.now);
  const completions = new Map<PrefixedRoute, Completion>();
  const completionOf = (route: PrefixedRoute) => {
    let completion = completions.get(route);
    if (!completion) {
      const { onUploadComplete } = route.config;
      completions.set(route, (completion = createCompletion({ settings, client, policy: route.config, onUploadComplete })));
    }
    return completion;
  };

  const report: ReconcileReport = {
    dryRun,
    finished: false,
    requests: 0,
    counts: { listed: 0, internal: 0, recent: 0, noHook: 0, recorded: 0, unrecorded: 0 },
    objects: [],
  };
  /** Whether a unit of work that takes up to `cost` requests may start; notes the bound that stops it. */
  const mayStart = (cost: number) => {
    if (Date.now() - started >= maxMs) report.stoppedBy = 'maxSeconds';
    else if (requests + cost > maxRequests) report.stoppedBy = 'maxRequests';
    return report.stoppedBy === undefined;
  };

  /** Handles one listed object; false when a bound stopped the run before it. */
  const visit = async (object: _Object): Promise<boolean> => {
    const key = object.Key!;
    const owner = ownerOfKey(key, routes);
    if (isInternalKey(key, owner && 'route' in owner ? owner.route.keyPrefix : '')) return count('internal');
    if (owner === undefined || ('route' in owner && !owner.route.config.onUploadComplete)) return count('noHook');
    const lastModified = object.LastModified ?? new Date(0);
    if (started - lastModified.getTime() < olderThanMs) return count('recent');
    const listed: ReconciledObject = { key, size: object.Size ?? 0, lastModified: lastModified.toISOString(), outcome: 'unreported' };
    if (owner && 'ambiguous' in owner) return found({ ...listed, outcome: 'ambiguous', routes: owner.ambiguous });
    const { route } = owner;
    if (route.name !== undefined) listed.route = route.name;
    if (!mayStart(dryRun ? 1 : COMPLETION_REQUESTS)) return false;
    const marker = await markers.read(markerKey(await idempotencyKeyOf(settings.bucket, key, object.ETag ?? '', lastModified)));
    if (marker && !markers.isStale(marker)) return count('recorded');
    if (dryRun) return found(listed);
    try {
      const { ran } = await completionOf(route).reconcile(key);
      return found({ ...listed, outcome: ran ? 'completed' : 'recorded' });
    } catch (error) {
      if (isUploadError(error)) return found({ ...listed, outcome: 'refused', code: error.code, error: error.message });
      log(error);
      const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
      return found({ ...listed, outcome: 'failed', error: `${name}: ${message}` });
    }
  };
  const count = (what: Exclude<keyof ReconcileReport['counts'], 'listed' | 'unrecorded'>) => ((report.counts[what] += 1), true);
  const found = (object: ReconciledObject) => {
    report.counts.unrecorded += 1;
    report.objects.push(object);
    return true;
  };

  const prefixes = listingPrefixes(routes.filter((route) => route.config.onUploadComplete).map((route) => route.keyPrefix));
  if (options.startAfter !== undefined) report.lastKey = options.startAfter;
  const listing = { Bucket: settings.bucket, prefixes, startAfter: options.startAfter, MaxKeys: pageSize };
  report.finished = await listAll(client, listing, mayStart, async (object) => {
    if (!(await visit(object))) return false;
    report.counts.listed += 1;
    report.lastKey = object.Key!;
    return true;
  }, (cursor) => (report.lastKey = cursor));
  report.requests = requests;
  return report;
}

/** What {@link listAll} lists: the objects of `Bucket` under `prefixes` (sorted, disjoint) after `startAfter`. */
interface Listing {
  Bucket: string;
  prefixes: string[];
  startAfter: string | undefined;
  MaxKeys: number;
}

/**
 * Lists every object of the listing in key order, handing each to `visit`; stops when `mayStart(1)` refuses a
 * page or `visit` answers false. True when all was listed. When a prefix was listed to its end, `reached`
 * gets the next prefix: a cursor (`startAfter`) that skips the prefixes done, so that a run stopped there
 * does not list them again.
 */
async function listAll(
  client: S3Client,
  { Bucket, prefixes, startAfter, MaxKeys }: Listing,
  mayStart: (cost: number) => boolean,
  visit: (object: _Object) => Promise<boolean>,
  reached: (cursor: string) => void,
): Promise<boolean> {
  const { ListObjectsV2Command } = await loadS3();
  for (const [index, Prefix] of prefixes.entries()) {
    // Every key under a prefix that `startAfter` passed without starting with it is before `startAfter`.
    if (startAfter !== undefined && startAfter > Prefix && !startAfter.startsWith(Prefix)) continue;
    const StartAfter = startAfter?.startsWith(Prefix) ? startAfter : undefined;
    let ContinuationToken: string | undefined;
    do {
      if (!mayStart(1)) return false;
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, MaxKeys, ...(ContinuationToken ? { ContinuationToken } : { StartAfter }) }));
      for (const object of page.Contents ?? []) if (!(await visit(object))) return false;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    const next = prefixes[index + 1];
    if (next !== undefined) reached(next);
  }
  return true;
}
