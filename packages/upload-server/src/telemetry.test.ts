import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { createUploadHandler } from './handler';
import { UploadError } from './errors';
import { countReservedBytes, countStoredBytes, inSpan, recordQueueLag } from './telemetry';

// Without an SDK (this file registers none until its last tests), `@opentelemetry/api` hands out no-op
// tracers and meters: the handler answers as before. An SDK the app registers later is used from then on.

const settings = {
  accessKeyId: 'AKID',
  secretAccessKey: 'SECRET',
  bucket: 'my-bucket',
  region: 'eu-west-1',
  // Nothing listens there: a presigned preparation is signed locally and sends nothing.
  endpoint: 'http://127.0.0.1:9',
  forcePathStyle: true,
  checkUnsignedHeaders: false,
};

const prepare = (handler: ReturnType<typeof createUploadHandler>, filetype = 'image/png') =>
  handler(
    new Request('http://127.0.0.1/api/s3-upload', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'cat.png', filetype, filesize: 10, _upload: { strategy: 'presigned' } }),
    }),
  );

afterAll(() => {
  trace.disable();
  metrics.disable();
});

describe('telemetry without an SDK', () => {
  it('the handler prepares and refuses as before; nothing is recorded (the API is not even imported)', async () => {
    const handler = createUploadHandler({ ...settings, allowedContentTypes: ['image/*'] });
    const answered = await prepare(handler);
    expect(answered.status).toBe(200);
    expect((await answered.json()).url).toContain('X-Amz-Signature');
    expect((await prepare(handler, 'text/plain')).status).toBe(400);
    // Nothing registered with the API: the module does not even import it.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')]).toBeUndefined();
    await expect(inSpan('upbeam.prepare', {}, async (span) => span.setAttribute('upbeam.parts', 1) && 'done')).resolves.toBe('done');
  });

  it('inSpan gives back what its work returns and throws what it throws; the counters take their calls', async () => {
    await expect(inSpan('upbeam.complete', { route: 'a' }, async () => 42)).resolves.toBe(42);
    const refusal = new UploadError('FORBIDDEN', 'no');
    await expect(inSpan('upbeam.complete', { route: 'a' }, async () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(() => {
      countReservedBytes('a', 10);
      countStoredBytes(undefined, 10);
      recordQueueLag(new Date());
    }).not.toThrow();
  });
});

describe('an SDK registered after the handler was made', () => {
  it('records from then on: spans, and the instruments made again on the new meter provider', async () => {
    const handler = createUploadHandler(settings);
    expect((await prepare(handler)).status).toBe(200);

    const spans = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

    expect((await prepare(handler)).status).toBe(200);
    const now = Date.parse('2026-11-29T08:00:10Z');
    recordQueueLag('2026-11-29T08:00:00Z', now);
    recordQueueLag('2026-11-29T09:00:00Z', now); // clocks apart: 0
    recordQueueLag('not a time', now); // not recorded
    recordQueueLag(undefined, now); // not recorded

    expect(spans.getFinishedSpans().map((span) => [span.name, span.attributes['upbeam.outcome']])).toEqual([['upbeam.prepare', 'ok']]);
    await reader.forceFlush();
    const collected = exporter.getMetrics().flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics));
    const preparations = collected.find((metric) => metric.descriptor.name === 'upbeam.preparations');
    expect(preparations?.dataPoints.map((point) => [point.attributes, point.value])).toEqual([[{ 'upbeam.strategy': 'presigned' }, 1]]);
    const lag = collected.find((metric) => metric.descriptor.name === 'upbeam.queue.lag') as HistogramMetricData;
    expect(lag.descriptor.unit).toBe('s');
    expect(lag.dataPoints[0]!.value).toMatchObject({ count: 2, sum: 10, min: 0, max: 10 });
  });
});
