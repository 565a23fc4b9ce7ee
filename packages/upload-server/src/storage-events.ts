import { compileApp } from './app';
import { UploadError } from './errors';
import type { UploadHandlerConfig } from './config';
import { createObjectCompleter, type ObjectCompleter, type ReconciledObject } from './reconcile-object';
import type { UploadRoutes } from './routes';
import { ATTR, inSpan } from './telemetry';

/** Most records one notification may hold (S3 sends one a message; radosgw one a request). */
const MAX_RECORDS = 100;

/** What {@link completeNotifiedUploads} did with a notification. */
export interface NotifiedUploads {
  /** Each object-created record of the handler's bucket under a route with `onUploadComplete`, and what came of it. */
  objects: ReconciledObject[];
  /** Records passed over: another event or bucket, the handler's own objects, a route without a hook. */
  ignored: number;
}

export interface EventRecord {
  eventSource?: unknown;
  eventName?: unknown;
  eventTime?: unknown;
  s3?: { bucket?: { name?: unknown }; object?: { key?: unknown; size?: unknown } };
}

/**
 * The records of an S3 event notification: `{ Records: [...] }` as radosgw posts it to an HTTP push endpoint
 * (and as AWS hands it to SQS, Lambda or EventBridge's S3 detail), or wrapped in an SNS HTTP message
 * (`{ Type: 'Notification', Message: '{"Records":[...]}' }`).
 */
export function eventRecords(body: unknown): EventRecord[] {
  let event = body as { Type?: unknown; Message?: unknown; Records?: unknown } | null;
  if (event && event.Type === 'Notification' && typeof event.Message === 'string') {
    try {
      event = JSON.parse(event.Message) as typeof event;
    } catch {
      event = null;
    }
  }
  const records = event?.Records;
  if (!Array.isArray(records) || records.length > MAX_RECORDS) {
    throw new UploadError('INVALID_REQUEST', `Expected an S3 event notification: { "Records": [...] } with at most ${MAX_RECORDS} records.`);
  }
  return records as EventRecord[];
}

/** The object key of a record: AWS URL-encodes it (a space as `+`); radosgw (`ceph:s3`) sends it as it is. */
export function recordKey(record: EventRecord): string | undefined {
  const key = record.s3?.object?.key;
  if (typeof key !== 'string' || key === '') return undefined;
  if (record.eventSource === 'ceph:s3') return key;
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * Completes the uploads a storage notification tells of, as {@link reconcileUploads} does for those it lists:
 * for each `ObjectCreated:*` record of the handler's bucket, the route is read from the key and its completion
 * runs (HEAD, the `maxFileSize` / `allowedContentTypes` checks, the upload's record, the completion marker,
 * `onUploadComplete` once with `source: 'reconcile'` and the record's `context`; an object no record of its
 * route covers is `unprepared` and left alone). Nothing in the notification is trusted but the key: the object is read from
 * storage, so a forged notification can at most complete a stored object sooner than a reconciliation would.
 * Still, put a secret in the push endpoint's URL and check it first.
 *
 * The notification arrives about when the page's own report does: whichever claims the marker first runs the
 * hook, once; the other gets its answer. A hook that needs the page's request (a session) should then leave
 * the work to a later report or reconciliation: refuse with an `UploadError` when `source` is `reconcile` and
 * the object is younger than you want, and the marker stays free.
 *
 * @param body the notification's JSON: `{ Records }` (radosgw's push endpoint, S3 via SQS/Lambda) or an SNS
 *   HTTP `Notification` holding it. Confirm an SNS subscription yourself: its `SubscribeURL` is not fetched.
 * @throws {@link UploadError} `INVALID_REQUEST` (400) for a body that is not one; `MISSING_SETTINGS` /
 *   `INVALID_SETTINGS` as `createUploadHandler`. A failed object is reported (`failed`), not thrown.
 * @example
 * // app/api/storage-events/route.ts: radosgw's topic `push-endpoint` is https://app.example.com/api/storage-events?secret=...
 * export async function POST(request: Request) {
 *   if (new URL(request.url).searchParams.get('secret') !== process.env.STORAGE_EVENTS_SECRET) return new Response(null, { status: 403 });
 *   return Response.json(await completeNotifiedUploads(uploadConfig, await request.json()));
 * }
 */
export async function completeNotifiedUploads(config: UploadHandlerConfig & { routes?: UploadRoutes }, body: unknown): Promise<NotifiedUploads> {
  const records = eventRecords(body);
  const app = compileApp(config);
  try {
    return await completeNotification(await createObjectCompleter(app), records);
  } finally {
    app.destroy();
  }
}

/**
 * What {@link completeNotifiedUploads} and the queue consumer (`amqp/consume-storage-events.ts`) do with one
 * notification, on an app's completer that the caller keeps open (the consumer keeps one for every message): for
 * each `ObjectCreated:*` record of the handler's bucket under a route with a hook, the route's completion.
 * @param records the notification's records, as {@link eventRecords} read them (it throws for a body that is not one).
 */
export function completeNotification(completer: ObjectCompleter, records: EventRecord[]): Promise<NotifiedUploads> {
  // One span per notification (`telemetry.ts`); each object completed in it is a child span (`reconcile-object.ts`).
  return inSpan('upbeam.storage_event', { attributes: { [ATTR.operation]: 'storage_event', 'upbeam.records': records.length } }, async (span) => {
    const result = await completeRecords(completer, records);
    span.setAttribute('upbeam.ignored', result.ignored);
    return result;
  });
}

/** The work of {@link completeNotification}. */
async function completeRecords(completer: ObjectCompleter, records: EventRecord[]): Promise<NotifiedUploads> {
  const result: NotifiedUploads = { objects: [], ignored: 0 };
  for (const record of records) {
    const key = recordKey(record);
    const created = typeof record.eventName === 'string' && record.eventName.startsWith('ObjectCreated:');
    const owner = key === undefined ? undefined : completer.ownerOf(key);
    if (!created || record.s3?.bucket?.name !== completer.settings.bucket || !owner || owner.kind === 'internal' || owner.kind === 'no-hook') {
      result.ignored += 1;
      continue;
    }
    const size = typeof record.s3?.object?.size === 'number' ? record.s3.object.size : 0;
    const time = typeof record.eventTime === 'string' && !Number.isNaN(Date.parse(record.eventTime)) ? new Date(record.eventTime).toISOString() : '';
    const found: ReconciledObject = { key: key!, size, lastModified: time, outcome: 'unreported' };
    if (owner.kind === 'ambiguous') result.objects.push({ ...found, outcome: 'ambiguous', routes: owner.routes });
    else result.objects.push(await completer.complete(owner.route, owner.route.name === undefined ? found : { ...found, route: owner.route.name }));
  }
  return result;
}
