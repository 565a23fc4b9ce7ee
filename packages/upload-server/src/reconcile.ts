import type { S3Client, _Object } from '@aws-sdk/client-s3';
import { compileApp } from './app';
import { idempotencyKeyOf, markerKey } from './completion-marker';
import type { UploadHandlerConfig } from './config';
import { createObjectCompleter, type ReconciledObject } from './reconcile-object';
import { listingPrefixes } from './reconcile-routes';
import type { UploadRoutes } from './routes';
import { loadS3 } from './sdk';
import { ATTR, inSpan } from './telemetry';
import { RECEIPT_TTL_SECONDS } from './upload-receipt';

/** Options of {@link reconcileUploads}. */
export interface ReconcileOptions {
  /**
   * Only objects stored at least this long ago, in seconds: a younger one may still be reported by its page.
   * The default is the lifetime of a single PUT's receipt: after it, no page can report the object any more.
   * @default 7200
   */
  olderThanSeconds?: number;
  /**
   * Only objects stored at most this long ago, in seconds. Keep it below the age at which a lifecycle rule
   * expires `.upbeam/completions/` markers (2 days in the Security guide's rule): an object whose marker expired would
   * look unreported and run its hook again. Raise it for a one-off run over older objects.
   * @default 86400
   */
  maxAgeSeconds?: number;
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

/** The report of one {@link reconcileUploads} run: JSON-serialisable. */
export interface ReconcileReport {
  /** Whether this run only listed and read (`dryRun`). */
  dryRun: boolean;
  /** Whether every prefix was listed to its end; false when `maxRequests` or `maxSeconds` stopped the run. */
  finished: boolean;
  /** The bound that stopped the run, when one did. */
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
    /** Older than `maxAgeSeconds`. */
    old: number;
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

/** Default of `maxAgeSeconds`: a day, below the 2 days after which the Security guide's lifecycle rule expires markers. */
const MAX_AGE_SECONDS = 86_400;

/**
 * Requests one object's completion may take: its marker read, HEAD, the listing and read of its upload record,
 * marker read, claim, answer (or a DELETE), and one more.
 */
const COMPLETION_REQUESTS = 8;

/**
 * Finds the uploads the server never heard of and completes them: lists the objects under the key prefixes
 * of the routes that have `onUploadComplete` (ListObjectsV2, in pages), skips the handler's own objects and
 * those younger than `olderThanSeconds` or older than `maxAgeSeconds`, reads each one's completion record (the marker a page's report
 * writes, `.upbeam/completions/`), and for those without one runs the route's completion as a report does:
 * HEAD, the `maxFileSize` / `allowedContentTypes` checks (a breaking object is deleted), the upload's record
 * (written, signed, at preparation: `.upbeam/uploads/`; an object no record covers is `unprepared` and left
 * alone), the claim, then `onUploadComplete` once with `source: 'reconcile'`, no `request` and the record's
 * `context`. A page that reports the same object
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
export function reconcileUploads(config: UploadHandlerConfig & { routes?: UploadRoutes }, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  // One span for the run (`telemetry.ts`), its report's counts on it; each object completed is a child span.
  return inSpan('upbeam.reconcile', { attributes: { [ATTR.operation]: 'reconcile', 'upbeam.reconcile.dry_run': options.dryRun ?? true } }, async (span) => {
    const report = await reconcile(config, options);
    span.setAttributes({
      'upbeam.reconcile.finished': report.finished,
      'upbeam.reconcile.requests': report.requests,
      'upbeam.reconcile.listed': report.counts.listed,
      'upbeam.reconcile.unrecorded': report.counts.unrecorded,
    });
    return report;
  });
}

/** One run of {@link reconcileUploads}. */
async function reconcile(config: UploadHandlerConfig & { routes?: UploadRoutes }, options: ReconcileOptions): Promise<ReconcileReport> {
  const started = Date.now();
  const dryRun = options.dryRun ?? true;
  const olderThanMs = (options.olderThanSeconds ?? RECEIPT_TTL_SECONDS) * 1000;
  const maxAgeMs = (options.maxAgeSeconds ?? MAX_AGE_SECONDS) * 1000;
  const maxRequests = options.maxRequests ?? 1000;
  const maxMs = (options.maxSeconds ?? 25) * 1000;
  const pageSize = Math.min(Math.max(Math.floor(options.pageSize ?? 1000), 1), 1000);
  const app = compileApp(config);
  const { settings, client, markers, ownerOf, complete } = await createObjectCompleter(app);
  let requests = 0;
  client.middlewareStack.add((next) => (args) => ((requests += 1), next(args)), { step: 'initialize', name: 'upbeamCountRequests' });

  const report: ReconcileReport = {
    dryRun,
    finished: false,
    requests: 0,
    counts: { listed: 0, internal: 0, recent: 0, old: 0, noHook: 0, recorded: 0, unrecorded: 0 },
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
    const owner = ownerOf(key);
    if (owner.kind === 'internal') return count('internal');
    if (owner.kind === 'no-hook') return count('noHook');
    const lastModified = object.LastModified ?? new Date(0);
    if (started - lastModified.getTime() < olderThanMs) return count('recent');
    if (started - lastModified.getTime() > maxAgeMs) return count('old');
    const listed: ReconciledObject = { key, size: object.Size ?? 0, lastModified: lastModified.toISOString(), outcome: 'unreported' };
    if (owner.kind === 'ambiguous') return found({ ...listed, outcome: 'ambiguous', routes: owner.routes });
    if (owner.route.name !== undefined) listed.route = owner.route.name;
    if (!mayStart(dryRun ? 1 : COMPLETION_REQUESTS)) return false;
    const marker = await markers.read(markerKey(await idempotencyKeyOf(settings.bucket, key, object.ETag ?? '', lastModified)));
    if (marker && !markers.isStale(marker)) return count('recorded');
    return found(dryRun ? listed : await complete(owner.route, listed));
  };
  const count = (what: Exclude<keyof ReconcileReport['counts'], 'listed' | 'unrecorded'>) => ((report.counts[what] += 1), true);
  const found = (object: ReconciledObject) => {
    report.counts.unrecorded += 1;
    report.objects.push(object);
    return true;
  };

  const prefixes = listingPrefixes(app.table.filter((route) => route.config.onUploadComplete).map((route) => route.keyPrefix));
  if (options.startAfter !== undefined) report.lastKey = options.startAfter;
  const listing = { Bucket: settings.bucket, prefixes, startAfter: options.startAfter, MaxKeys: pageSize };
  try {
    report.finished = await listAll(client, listing, mayStart, async (object) => {
      if (!(await visit(object))) return false;
      report.counts.listed += 1;
      report.lastKey = object.Key!;
      return true;
    }, (cursor) => (report.lastKey = cursor));
    report.requests = requests;
  } finally {
    app.destroy();
  }
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
