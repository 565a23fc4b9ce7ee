/**
 * The handler's OpenTelemetry: spans for its operations and a few metrics, through `@opentelemetry/api`
 * only. The tracer and the meter are named `@upbeam/upload-server`, with the package's version. Without an
 * SDK installed by the app, the API hands out no-op tracers and meters: nothing is recorded and nothing
 * breaks; an SDK registered after this module was loaded is used from then on (the tracer is asked for at
 * each span, the instruments are made again when the global meter provider changes).
 *
 * The API itself is imported only once something registered with it: its 65 CommonJS files cost a cold Node
 * process tens of milliseconds of CPU (bench/RESULTS.md 2c), which an app without OpenTelemetry should not pay. Every copy of
 * `@opentelemetry/api` 1.x keeps what is registered (an SDK's providers, a context manager, a logger) under
 * one global symbol, `Symbol.for('opentelemetry.js.api.1')`: while it is absent, the API would hand out
 * no-ops, and so does this module without loading it; once it is there, the API is imported (once) and
 * used. A span waits for that import; a metric is recorded when it is done.
 *
 * What is recorded, and what never is (the docs' "Telemetry" guide lists it for users):
 * - span attributes: `upbeam.route` (the route's name; absent without routes), `upbeam.operation`,
 *   `upbeam.strategy`, `upbeam.outcome` (`ok`, `refused`, `error`), `error.type` (the `UploadError` code of
 *   a refusal or failure, else the error's `name`), `upbeam.object.key` (the object key, once the operation
 *   succeeded or the key is the server's: keys are chosen by the app, `defaultObjectKey` puts the file's name
 *   in it), sizes and counts.
 * - never: a presigned URL, a header, a credential, a receipt, a ticket, a token, the request body, or the
 *   text of any error (storage and STS errors can hold account ARNs): a failure's span has status ERROR
 *   with its code as the description and an `exception` event that holds `exception.type` only.
 *
 * A 4xx refusal is not a server error (OpenTelemetry's HTTP conventions): its span's status stays unset,
 * `error.type` holds the code and `upbeam.refusals` counts it. A 5xx sets status ERROR.
 */
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Attributes, Counter, Histogram, MeterProvider, Span, SpanKind } from '@opentelemetry/api';
import { version } from '../package.json';
import { isUploadError } from './errors';
import { lazily } from './lazily';

type Api = typeof OpenTelemetry;

/** Where every copy of `@opentelemetry/api` 1.x keeps what is registered with it (its `global-utils`). */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

let api: Api | undefined;
const loadApi = lazily(async () => (api = await import('@opentelemetry/api')));

/**
 * The API once something registered with it (an SDK), imported on first need; undefined while nothing did
 * (the API would then hand out no-ops: see the module's comment), or when it cannot be imported (a bundle that
 * left it out): telemetry never fails an operation.
 */
async function registeredApi(): Promise<Api | undefined> {
  if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return undefined;
  return api ?? loadApi().catch(() => undefined);
}

/** Runs `record` with the instruments when something registered with the API (once it is imported); else nothing. */
function withInstruments(record: (instruments: Instruments) => void): void {
  if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return;
  if (api) record(meters(api));
  else void loadApi().then((loaded) => record(meters(loaded)), () => {});
}

/** The instrumentation scope of the tracer and the meter. */
export const INSTRUMENTATION_NAME = '@upbeam/upload-server';
/** The package's version, the scope's version. */
export const INSTRUMENTATION_VERSION: string = version;

/** Span names, one per operation. */
export type SpanName =
  | 'upbeam.prepare'
  | 'upbeam.sign_parts'
  | 'upbeam.list_parts'
  | 'upbeam.complete'
  | 'upbeam.renew'
  | 'upbeam.abort'
  | 'upbeam.reconcile'
  | 'upbeam.storage_event';

/** How an operation ended: done, refused with a 4xx `UploadError`, or failed (a 5xx: logged through `onError`). */
export type Outcome = 'ok' | 'refused' | 'error';

/** Attribute names (OpenTelemetry's `error.type` for the code; the rest under `upbeam.`). */
export const ATTR = {
  route: 'upbeam.route',
  operation: 'upbeam.operation',
  strategy: 'upbeam.strategy',
  outcome: 'upbeam.outcome',
  errorType: 'error.type',
  key: 'upbeam.object.key',
  size: 'upbeam.object.size',
  parts: 'upbeam.parts',
  source: 'upbeam.source',
} as const;

/** Histogram bounds in seconds for a hook's run: 5 ms to a minute (OpenTelemetry's HTTP duration advice, stretched). */
const HOOK_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Histogram bounds in seconds for the queue's lag: 50 ms to an hour (a broker down for a while). */
const LAG_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

interface Instruments {
  provider: MeterProvider;
  preparations: Counter;
  refusals: Counter;
  bytesReserved: Counter;
  bytesStored: Counter;
  hookDuration: Histogram;
  queueLag: Histogram;
}

let instruments: Instruments | undefined;

/** The instruments on the global meter provider, made again when the app registers another one. */
function meters({ metrics }: Api): Instruments {
  const provider = metrics.getMeterProvider();
  if (instruments?.provider === provider) return instruments;
  const meter = provider.getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  instruments = {
    provider,
    preparations: meter.createCounter('upbeam.preparations', { description: 'Uploads prepared (a presigned URL, a token, a multipart upload created).', unit: '{preparation}' }),
    refusals: meter.createCounter('upbeam.refusals', { description: 'Requests refused with a 4xx code.', unit: '{refusal}' }),
    bytesReserved: meter.createCounter('upbeam.bytes.reserved', { description: 'Bytes reserved at preparation by routes with limits (the declared size).', unit: 'By' }),
    bytesStored: meter.createCounter('upbeam.bytes.stored', { description: 'Bytes of completed uploads, as storage reports them (HEAD).', unit: 'By' }),
    hookDuration: meter.createHistogram('upbeam.hook.duration', {
      description: "onUploadComplete's run.",
      unit: 's',
      advice: { explicitBucketBoundaries: HOOK_BUCKETS_S },
    }),
    queueLag: meter.createHistogram('upbeam.queue.lag', {
      description: 'From the storage event to its handling by the consumer.',
      unit: 's',
      advice: { explicitBucketBoundaries: LAG_BUCKETS_S },
    }),
  };
  return instruments;
}

/** `upbeam.route` when the handler has routes; nothing without (one default route). */
export function routeAttributes(route: string | undefined): Attributes {
  return route === undefined ? {} : { [ATTR.route]: route };
}

/** What `error` says of itself without its text: the `UploadError` code, else the error's `name`. */
export function errorType(error: unknown): string {
  if (isUploadError(error)) return error.code;
  if (error instanceof Error && typeof error.name === 'string' && error.name !== '') return error.name;
  return 'Error';
}

/** Whether `error` is a refusal: a 4xx `UploadError` (the browser is told why; not a server error). */
function isRefusal(error: unknown): boolean {
  return isUploadError(error) && error.status < 500;
}

/** The errors already counted in `upbeam.refusals` (the route's span counts first; the handler's catch after). */
const counted = new WeakSet<object>();

/**
 * Counts `error` in `upbeam.refusals` when it is a refusal not counted yet. `route`: the route that refused;
 * undefined for a request refused before its route was known (bad JSON, an unknown route).
 */
export function countRefusal(error: unknown, route: string | undefined): void {
  if (!isRefusal(error) || counted.has(error as object)) return;
  counted.add(error as object);
  const attributes = { ...routeAttributes(route), [ATTR.errorType]: (error as { code: string }).code };
  withInstruments(({ refusals }) => refusals.add(1, attributes));
}

/**
 * Ends `span` for a thrown `error`: a refusal sets `error.type` and leaves the status unset; any other error
 * sets status ERROR with the code (or error name) as its description, and an `exception` event with
 * `exception.type` only (never the message or stack: storage and STS errors can hold account ARNs).
 */
function recordError({ SpanStatusCode }: Api, span: Span, error: unknown): Outcome {
  const type = errorType(error);
  span.setAttribute(ATTR.errorType, type);
  if (isRefusal(error)) {
    span.setAttribute(ATTR.outcome, 'refused');
    return 'refused';
  }
  span.setAttribute(ATTR.outcome, 'error');
  span.addEvent('exception', { 'exception.type': error instanceof Error ? error.name : typeof error });
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  return 'error';
}

/** Options of {@link inSpan}. */
export interface SpanOptions {
  attributes?: Attributes;
  /** The span's kind. @default SpanKind.INTERNAL */
  kind?: SpanKind;
  /** The route, for `upbeam.route` and the refusal count. */
  route?: string | undefined;
}

/** What `work` may do with its span: add attributes. */
export type SpanAttributes = Pick<Span, 'setAttribute' | 'setAttributes'>;

/** The span `work` gets while nothing registered with the API: it keeps nothing. */
const UNRECORDED: SpanAttributes = {
  setAttribute() {
    return this as Span;
  },
  setAttributes() {
    return this as Span;
  },
};

/**
 * Runs `work` in an active span `name` (children nest under it), ended when `work` settles: `upbeam.outcome`
 * `ok` when it returns; a thrown error is recorded without its text (see {@link recordError}), counted when
 * it is a refusal, and thrown on. `work` may add attributes to the span it gets (never a URL, header,
 * credential, receipt, ticket or error text).
 */
export async function inSpan<T>(name: SpanName, options: SpanOptions, work: (span: SpanAttributes) => Promise<T>): Promise<T> {
  const otel = await registeredApi();
  if (otel === undefined) {
    try {
      return await work(UNRECORDED);
    } catch (error) {
      countRefusal(error, options.route);
      throw error;
    }
  }
  const attributes = { ...routeAttributes(options.route), ...options.attributes };
  return otel.trace.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION).startActiveSpan(name, { attributes, kind: options.kind }, async (span) => {
    try {
      const result = await work(span);
      span.setAttribute(ATTR.outcome, 'ok');
      return result;
    } catch (error) {
      recordError(otel, span, error);
      countRefusal(error, options.route);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Counts one preparation in `upbeam.preparations`. */
export function countPreparation(route: string | undefined, strategy: string): void {
  const attributes = { ...routeAttributes(route), [ATTR.strategy]: strategy };
  withInstruments(({ preparations }) => preparations.add(1, attributes));
}

/** Adds the declared `bytes` of a reservation the route's limits granted to `upbeam.bytes.reserved`. */
export function countReservedBytes(route: string | undefined, bytes: number): void {
  if (bytes > 0) withInstruments(({ bytesReserved }) => bytesReserved.add(bytes, routeAttributes(route)));
}

/** Adds a completed upload's stored size (HEAD) to `upbeam.bytes.stored`. */
export function countStoredBytes(route: string | undefined, bytes: number): void {
  if (bytes > 0) withInstruments(({ bytesStored }) => bytesStored.add(bytes, routeAttributes(route)));
}

/**
 * Runs `onUploadComplete` through `run` and records its duration in `upbeam.hook.duration` (seconds), with
 * the route, who told the server (`upbeam.source`: `page` or `reconcile`) and the outcome.
 */
export async function timedHook<T>(route: string | undefined, source: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome: Outcome = 'ok';
  try {
    return await run();
  } catch (error) {
    outcome = isRefusal(error) ? 'refused' : 'error';
    throw error;
  } finally {
    const seconds = (performance.now() - started) / 1000;
    withInstruments(({ hookDuration }) => hookDuration.record(seconds, { ...routeAttributes(route), [ATTR.source]: source, [ATTR.outcome]: outcome }));
  }
}

/**
 * Records the lag of a storage event in `upbeam.queue.lag`, in seconds: from `eventTime` (the record's
 * `eventTime`, when storage stored the object) to now. An event time in the future (clocks apart) counts as 0;
 * an unreadable one is not recorded.
 */
export function recordQueueLag(eventTime: string | Date | undefined, now: number = Date.now()): void {
  const time = eventTime instanceof Date ? eventTime.getTime() : eventTime === undefined ? Number.NaN : Date.parse(eventTime);
  if (Number.isNaN(time)) return;
  withInstruments(({ queueLag }) => queueLag.record(Math.max(0, now - time) / 1000));
}
