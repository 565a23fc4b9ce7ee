import { randomBytes } from 'node:crypto';
import { context, metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import type { CompletedPart, MultipartUploadResponse, SignedPart } from '@upbeam/upload-protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completeNotifiedUploads, createUploadHandler, defineRoutes, reconcileUploads, UploadError, type UploadHandler } from '../src/index';
import { putWithToken } from './put-with-token';

// The handler's OpenTelemetry through the real SDK (BasicTracerProvider and MeterProvider, registered as the
// global providers as an app's SDK setup does, with in-memory exporters), from real requests to the handler
// against local-s3 (s3rver) on 127.0.0.1: the spans of every operation, the metrics, and that no attribute,
// event or status of any span holds a secret (the storage key, a presigned URL or its signature, a token's
// credentials, a receipt or ticket, an error's text).

const MiB = 1024 * 1024;
const PART = 5 * MiB;

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
// Exports only when flushed (the interval is longer than the file runs).
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });

let storage: LocalS3;
let handler: UploadHandler;
/** What a failing handler's `onError` got. */
const logged: unknown[] = [];
/** Everything a test must never find in telemetry: the storage secret, and each URL, credential, receipt and ticket answered. */
const secrets = new Set<string>();
let hookThrows = false;

const routes = defineRoutes({
  photos: {
    keyPrefix: 'photos/',
    allowedContentTypes: ['image/*'],
    maxFileSize: 1000,
    onUploadComplete: async ({ key }) => {
      if (hookThrows) throw new Error(`storage said: AccessDenied for ${storage.handlerSettings.secretAccessKey}`);
      return { photo: key };
    },
  },
  videos: { keyPrefix: 'videos/', allowedContentTypes: ['video/*'] },
  files: { keyPrefix: 'files/', strategies: ['temporary-token'], maxFileSize: 1000, onUploadComplete: () => ({ ok: true }) },
  quota: { keyPrefix: 'quota/', limits: { bytes: { max: 1000, windowSeconds: 3600 } }, onBeforeUpload: () => ({ subject: 'user-1' }) },
});

// Node's async context, as an app's SDK installs it (NodeTracerProvider.register(), sdk-node): spans nest.
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  storage = await startLocalS3();
  secrets.add(storage.handlerSettings.secretAccessKey);
  handler = createUploadHandler({ ...storage.handlerSettings, stsClient: storage.stsClient, routes, onError: (error) => logged.push(error) });
});
afterAll(async () => {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  trace.disable();
  metrics.disable();
  context.disable();
  await storage?.close();
});
beforeEach(() => spans.reset());

/** POSTs a body as the browser does; every URL, receipt, ticket and credential of the answer is noted as a secret. */
async function call(route: string, marker: object, extra: object = {}, to: UploadHandler = handler) {
  const response = await to(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'cat.png', filetype: 'image/png', route, _upload: marker, ...extra }),
    }),
  );
  const body = (await response.json()) as Record<string, any>;
  noteSecrets(body);
  return { status: response.status, body };
}

/** Notes each secret an answer holds: URLs, receipts, tickets, the token's three credentials. */
function noteSecrets(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  for (const [name, field] of Object.entries(value)) {
    if (typeof field === 'string' && ['url', 'receipt', 'ticket', 'AccessKeyId', 'SecretAccessKey', 'SessionToken'].includes(name)) secrets.add(field);
    else noteSecrets(field);
  }
}

/** The finished spans named `name`. */
const named = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name);

/** The one finished span named `name`. */
function only(name: string): ReadableSpan {
  const found = named(name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0]!;
}

/** The metrics collected so far (cumulative), by name. */
async function collected(): Promise<Map<string, MetricData>> {
  metricExporter.reset();
  await reader.forceFlush();
  const byName = new Map<string, MetricData>();
  for (const resource of metricExporter.getMetrics()) {
    for (const scope of resource.scopeMetrics) {
      expect(scope.scope).toMatchObject({ name: '@upbeam/upload-server', version: expect.any(String) });
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    }
  }
  return byName;
}

/** The value of a counter's data point whose attributes are exactly `attributes` (0 without one). */
function counted(metric: MetricData | undefined, attributes: Record<string, string>): number {
  const point = metric?.dataPoints.find((candidate) => JSON.stringify(candidate.attributes) === JSON.stringify(attributes));
  return (point?.value as number | undefined) ?? 0;
}

/** Whether `child` is a child of `parent`. */
const isChildOf = (child: ReadableSpan, parent: ReadableSpan) =>
  child.parentSpanContext?.spanId === parent.spanContext().spanId && child.spanContext().traceId === parent.spanContext().traceId;

/** Every text a span exposes to an exporter: name, attributes, events and their attributes, status, links. */
function exposed(span: ReadableSpan): string {
  return JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links });
}

/** The secrets found in the finished spans (and the signature of any presigned URL). */
function leaks(): string[] {
  const text = spans.getFinishedSpans().map(exposed).join('\n');
  return [...secrets, 'X-Amz-Signature', 'X-Amz-Credential', 'x-amz-security-token', 'AccessDenied for'].filter((secret) => text.includes(secret));
}

describe('OpenTelemetry through the SDK, from real requests against local-s3', () => {
  it('a presigned upload: upbeam.prepare and upbeam.complete, a preparation counted, the stored bytes and the hook duration recorded', async () => {
    const before = await collected();
    const prepared = await call('photos', { strategy: 'presigned' }, { filesize: 600 });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const put = await fetch(prepared.body.url, { method: 'PUT', body: randomBytes(600), headers: prepared.body.headers });
    expect(put.status).toBe(200);
    const done = await call('photos', { strategy: 'presigned', complete: { key: prepared.body.key, receipt: prepared.body.receipt } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    const prepare = only('upbeam.prepare');
    expect(prepare.attributes).toEqual({
      'upbeam.route': 'photos',
      'upbeam.operation': 'prepare',
      'upbeam.strategy': 'presigned',
      'upbeam.outcome': 'ok',
      'upbeam.object.key': prepared.body.key,
    });
    expect(prepare.status.code).toBe(SpanStatusCode.UNSET);
    expect(prepare.instrumentationScope.name).toBe('@upbeam/upload-server');
    expect(only('upbeam.complete').attributes).toMatchObject({ 'upbeam.route': 'photos', 'upbeam.operation': 'complete', 'upbeam.outcome': 'ok', 'upbeam.object.key': prepared.body.key });

    const after = await collected();
    const route = { 'upbeam.route': 'photos' };
    expect(counted(after.get('upbeam.preparations'), { ...route, 'upbeam.strategy': 'presigned' }) - counted(before.get('upbeam.preparations'), { ...route, 'upbeam.strategy': 'presigned' })).toBe(1);
    expect(after.get('upbeam.bytes.stored')!.descriptor.unit).toBe('By');
    expect(counted(after.get('upbeam.bytes.stored'), route) - counted(before.get('upbeam.bytes.stored'), route)).toBe(600);
    const hook = after.get('upbeam.hook.duration')!;
    expect(hook.descriptor.unit).toBe('s');
    expect(hook.dataPointType).toBe(DataPointType.HISTOGRAM);
    const ran = hook.dataPoints.find((point) => point.attributes['upbeam.source'] === 'page' && point.attributes['upbeam.outcome'] === 'ok');
    expect((ran?.value as { count: number } | undefined)?.count).toBeGreaterThanOrEqual(1);
    expect(leaks()).toEqual([]);
  });

  it("a request's span is a child of the app's active span (its HTTP instrumentation's)", async () => {
    const tracer = trace.getTracer('the-app');
    await tracer.startActiveSpan('POST /api/s3-upload', async (request) => {
      expect((await call('photos', { strategy: 'presigned' }, { filesize: 10 })).status).toBe(200);
      request.end();
    });
    expect(isChildOf(only('upbeam.prepare'), only('POST /api/s3-upload'))).toBe(true);
  });

  it('refusals: a 4xx leaves the status unset, error.type holds the code, upbeam.refusals counts it by route and code', async () => {
    const before = await collected();
    expect((await call('photos', { strategy: 'presigned' }, { filetype: 'text/plain', filesize: 10 })).status).toBe(400);
    expect((await call('nowhere', { strategy: 'presigned' }, { filesize: 10 })).status).toBe(404);
    const refused = only('upbeam.prepare');
    expect(refused.attributes).toMatchObject({ 'upbeam.route': 'photos', 'upbeam.outcome': 'refused', 'error.type': 'FILE_TYPE_NOT_ALLOWED' });
    expect(refused.status.code).toBe(SpanStatusCode.UNSET);
    expect(refused.events).toEqual([]);

    const after = await collected();
    const delta = (attributes: Record<string, string>) => counted(after.get('upbeam.refusals'), attributes) - counted(before.get('upbeam.refusals'), attributes);
    expect(delta({ 'upbeam.route': 'photos', 'error.type': 'FILE_TYPE_NOT_ALLOWED' })).toBe(1);
    // Refused before a route was chosen: counted without one (the browser's route name is not an attribute).
    expect(delta({ 'error.type': 'UNKNOWN_ROUTE' })).toBe(1);
  });

  it('a presigned multipart upload: prepare (strategy multipart), sign_parts, complete; a second one aborted', async () => {
    const extra = { filename: 'clip.mp4', filetype: 'video/mp4', filesize: PART + 10 };
    const create = await call('videos', { strategy: 'presigned', multipart: { action: 'create', partSize: PART } }, extra);
    expect(create.status, JSON.stringify(create.body)).toBe(200);
    const { ticket, key } = create.body as MultipartUploadResponse;
    const signed = await call('videos', { strategy: 'presigned', multipart: { action: 'sign-parts', ticket, partNumbers: [1, 2] } }, extra);
    expect(signed.status).toBe(200);
    const file = randomBytes(PART + 10);
    const parts: CompletedPart[] = await Promise.all(
      (signed.body.parts as SignedPart[]).map(async ({ partNumber, url, headers }) => {
        const response = await fetch(url, { method: 'PUT', body: file.subarray((partNumber - 1) * PART, partNumber * PART), headers });
        expect(response.status).toBe(200);
        return { partNumber, etag: response.headers.get('etag')! };
      }),
    );
    const done = await call('videos', { strategy: 'presigned', multipart: { action: 'complete', ticket, parts } }, extra);
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    const second = await call('videos', { strategy: 'presigned', multipart: { action: 'create', partSize: PART } }, extra);
    const aborted = await call('videos', { strategy: 'presigned', multipart: { action: 'abort', ticket: second.body.ticket } }, extra);

    expect(named('upbeam.prepare').map((span) => span.attributes)).toEqual([
      expect.objectContaining({ 'upbeam.operation': 'multipart.create', 'upbeam.strategy': 'multipart', 'upbeam.outcome': 'ok', 'upbeam.object.key': key }),
      expect.objectContaining({ 'upbeam.operation': 'multipart.create', 'upbeam.outcome': 'ok' }),
    ]);
    expect(only('upbeam.sign_parts').attributes).toMatchObject({ 'upbeam.route': 'videos', 'upbeam.operation': 'multipart.sign-parts', 'upbeam.parts': 2, 'upbeam.outcome': 'ok' });
    expect(only('upbeam.complete').attributes).toMatchObject({ 'upbeam.operation': 'multipart.complete', 'upbeam.parts': 2, 'upbeam.outcome': 'ok', 'upbeam.object.key': key });
    const abort = only('upbeam.abort');
    expect(abort.attributes).toMatchObject({ 'upbeam.route': 'videos', 'upbeam.operation': 'multipart.abort' });
    // local-s3 aborts; where storage refuses (a 500 the app's onError gets), the span says ERROR with the error's type only.
    if (aborted.status === 200) expect(abort.attributes['upbeam.outcome']).toBe('ok');
    else expect(abort.status).toEqual({ code: SpanStatusCode.ERROR, message: abort.attributes['error.type'] });
    expect(leaks()).toEqual([]);
  });

  it('the temporary-token strategy: prepare and renew; the credentials, ticket and receipt are in no span', async () => {
    const extra = { filename: 'notes.txt', filetype: 'text/plain', filesize: 100 };
    const prepared = await call('files', { strategy: 'temporary-token' }, extra);
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const renewed = await call('files', { strategy: 'temporary-token', renew: { ticket: prepared.body.ticket } }, extra);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    await putWithToken(prepared.body as never, 100, 'text/plain');
    const done = await call('files', { strategy: 'temporary-token', complete: { key: prepared.body.key, receipt: prepared.body.receipt } }, extra);
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    expect(only('upbeam.prepare').attributes).toMatchObject({ 'upbeam.route': 'files', 'upbeam.strategy': 'temporary-token', 'upbeam.outcome': 'ok' });
    expect(only('upbeam.renew').attributes).toMatchObject({ 'upbeam.route': 'files', 'upbeam.operation': 'renew', 'upbeam.outcome': 'ok' });
    expect(only('upbeam.complete').attributes).toMatchObject({ 'upbeam.outcome': 'ok' });
    expect(secrets.size).toBeGreaterThan(4);
    expect(leaks()).toEqual([]);
  });

  it("a failure (500): status ERROR with the error's type, an exception event without its message; a storage error's text in no span", async () => {
    const prepared = await call('photos', { strategy: 'presigned' }, { filesize: 10 });
    await fetch(prepared.body.url, { method: 'PUT', body: randomBytes(10), headers: prepared.body.headers });
    hookThrows = true;
    try {
      const failed = await call('photos', { strategy: 'presigned', complete: { key: prepared.body.key, receipt: prepared.body.receipt } });
      expect(failed.status).toBe(500);
    } finally {
      hookThrows = false;
    }
    const complete = only('upbeam.complete');
    expect(complete.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Error' });
    expect(complete.attributes).toMatchObject({ 'upbeam.outcome': 'error', 'error.type': 'Error' });
    expect(complete.events.map(({ name, attributes }) => ({ name, attributes }))).toEqual([{ name: 'exception', attributes: { 'exception.type': 'Error' } }]);

    // Storage refuses the handler's own request (a wrong secret: the upload record's PUT is refused).
    const wrong = createUploadHandler({ ...storage.handlerSettings, secretAccessKey: 'wrong-secret-0123456789', routes, onError: (error) => logged.push(error) });
    secrets.add('wrong-secret-0123456789');
    spans.reset();
    expect((await call('photos', { strategy: 'presigned' }, { filesize: 10 }, wrong)).status).toBe(500);
    const refusedByStorage = only('upbeam.prepare');
    const storageError = logged.at(-1) as Error;
    expect(storageError.message.length).toBeGreaterThan(0);
    expect(refusedByStorage.status).toEqual({ code: SpanStatusCode.ERROR, message: storageError.name });
    expect(exposed(refusedByStorage)).not.toContain(storageError.message);
    expect(leaks()).toEqual([]);
  });

  it('reconcileUploads: upbeam.reconcile with its counts, and upbeam.complete (source reconcile) for the object it completed', async () => {
    const prepared = await call('photos', { strategy: 'presigned' }, { filesize: 20 });
    await fetch(prepared.body.url, { method: 'PUT', body: randomBytes(20), headers: prepared.body.headers });
    spans.reset();
    const report = await reconcileUploads({ ...storage.handlerSettings, routes, onError: (error) => logged.push(error) }, { dryRun: false, olderThanSeconds: 0 });
    expect(report.objects.find((object) => object.key === prepared.body.key)?.outcome).toBe('completed');
    expect(only('upbeam.reconcile').attributes).toMatchObject({
      'upbeam.operation': 'reconcile',
      'upbeam.reconcile.dry_run': false,
      'upbeam.reconcile.finished': true,
      'upbeam.outcome': 'ok',
    });
    const completions = named('upbeam.complete').filter((span) => span.attributes['upbeam.object.key'] === prepared.body.key);
    expect(completions.map((span) => span.attributes)).toEqual([
      expect.objectContaining({ 'upbeam.route': 'photos', 'upbeam.source': 'reconcile', 'upbeam.completion': 'completed', 'upbeam.outcome': 'ok' }),
    ]);
    expect(isChildOf(completions[0]!, only('upbeam.reconcile'))).toBe(true);
    expect(leaks()).toEqual([]);
  });

  it('completeNotifiedUploads: upbeam.storage_event for the notification, upbeam.complete (source reconcile) for its object', async () => {
    const prepared = await call('photos', { strategy: 'presigned' }, { filesize: 30 });
    await fetch(prepared.body.url, { method: 'PUT', body: randomBytes(30), headers: prepared.body.headers });
    spans.reset();
    const record = (key: string) => ({
      eventSource: 'ceph:s3',
      eventName: 'ObjectCreated:Put',
      eventTime: new Date().toISOString(),
      s3: { bucket: { name: storage.bucket }, object: { key, size: 30 } },
    });
    const notified = await completeNotifiedUploads({ ...storage.handlerSettings, routes, onError: (error) => logged.push(error) }, { Records: [record(prepared.body.key), record('elsewhere/x.bin')] });
    expect(notified.objects.map((object) => object.outcome)).toEqual(['completed']);
    expect(only('upbeam.storage_event').attributes).toEqual({ 'upbeam.operation': 'storage_event', 'upbeam.records': 2, 'upbeam.ignored': 1, 'upbeam.outcome': 'ok' });
    expect(only('upbeam.complete').attributes).toMatchObject({ 'upbeam.route': 'photos', 'upbeam.source': 'reconcile', 'upbeam.object.key': prepared.body.key, 'upbeam.completion': 'completed' });
    expect(isChildOf(only('upbeam.complete'), only('upbeam.storage_event'))).toBe(true);
    expect(leaks()).toEqual([]);
  });

  it('quotas: upbeam.bytes.reserved counts the declared bytes of each granted reservation; a refusal by quota is counted with its code', async () => {
    const before = await collected();
    expect((await call('quota', { strategy: 'presigned' }, { filesize: 600 })).status).toBe(200);
    const over = await call('quota', { strategy: 'presigned' }, { filesize: 600 });
    expect(over.body).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 'bytes' });
    const after = await collected();
    const route = { 'upbeam.route': 'quota' };
    expect(after.get('upbeam.bytes.reserved')!.descriptor.unit).toBe('By');
    expect(counted(after.get('upbeam.bytes.reserved'), route) - counted(before.get('upbeam.bytes.reserved'), route)).toBe(600);
    const refusals = { ...route, 'error.type': 'QUOTA_EXCEEDED' };
    expect(counted(after.get('upbeam.refusals'), refusals) - counted(before.get('upbeam.refusals'), refusals)).toBe(1);
    expect(named('upbeam.prepare').map((span) => span.attributes['upbeam.outcome'])).toEqual(['ok', 'refused']);
  });

  it('no metric carries an object key or any secret', async () => {
    const text = JSON.stringify([...(await collected()).values()].map((metric) => metric.dataPoints.map((point) => point.attributes)));
    expect(text).not.toMatch(/photos\/|videos\/|files\/|quota\//);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('an UploadError a hook throws is a refusal (status unset), its message not recorded', async () => {
    const refusing = createUploadHandler({
      ...storage.handlerSettings,
      onUploadComplete: () => {
        throw new UploadError('FORBIDDEN', 'Not yours.');
      },
    });
    const prepared = await call('', { strategy: 'presigned' }, { filesize: 10, route: undefined }, refusing);
    await fetch(prepared.body.url, { method: 'PUT', body: randomBytes(10), headers: prepared.body.headers });
    spans.reset();
    expect((await call('', { strategy: 'presigned', complete: { key: prepared.body.key, receipt: prepared.body.receipt } }, { route: undefined }, refusing)).status).toBe(403);
    const complete = only('upbeam.complete');
    expect(complete.attributes).toMatchObject({ 'upbeam.outcome': 'refused', 'error.type': 'FORBIDDEN' });
    expect(complete.attributes).not.toHaveProperty('upbeam.route');
    expect(complete.status.code).toBe(SpanStatusCode.UNSET);
  });
});
