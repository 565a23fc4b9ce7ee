import { randomBytes } from 'node:crypto';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startLocalS3, type LocalS3 } from '@upbeam/local-s3';
import { isRabbitmqAvailable, startRabbitmq, type Rabbitmq } from '@upbeam/rabbitmq';
import { connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeStorageEvents, type StorageEventsConsumer } from '../../src/amqp/index';
import { createUploadHandler, defineRoutes } from '../../src/index';

// upbeam.queue.lag and upbeam.storage_event from the queue consumer, through the real OpenTelemetry SDK (in-memory
// exporters) and a real RabbitMQ broker: a notification whose event time is 3 s old is published to the queue
// (as radosgw would publish it: the object is stored on local-s3, prepared by the handler) and consumed.

const QUEUE = 'telemetry-lag';
const LAG_SECONDS = 3;

// In CI a missing broker fails the run (startRabbitmq throws), not shrinks it.
describe.runIf(process.env.CI === 'true' || isRabbitmqAvailable())('the queue consumer records its lag and a span per message', () => {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const completed: string[] = [];
  const routes = defineRoutes({ photos: { keyPrefix: 'photos/', onUploadComplete: ({ key }) => void completed.push(key) } });
  let broker: Rabbitmq;
  let storage: LocalS3;
  let consumer: StorageEventsConsumer | undefined;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
    [broker, storage] = await Promise.all([startRabbitmq(), startLocalS3()]);
  });
  afterAll(async () => {
    await consumer?.close();
    await Promise.all([broker?.stop(), storage?.close(), tracerProvider.shutdown(), meterProvider.shutdown()]);
    trace.disable();
    metrics.disable();
    context.disable();
  });

  it('a notification 3 s old: upbeam.queue.lag records at least 3 s; upbeam.storage_event holds the completion', async () => {
    const config = { ...storage.handlerSettings, routes };
    const handler = createUploadHandler(config);
    const response = await handler(
      new Request('http://127.0.0.1/api/s3-upload', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'cat.png', filetype: 'image/png', filesize: 10, route: 'photos', _upload: { strategy: 'presigned' } }),
      }),
    );
    const prepared = (await response.json()) as { url: string; key: string; headers: Record<string, string> };
    expect((await fetch(prepared.url, { method: 'PUT', body: randomBytes(10), headers: prepared.headers })).status).toBe(200);

    consumer = await consumeStorageEvents(config, { url: broker.url, queue: QUEUE });
    const connection = await connect(broker.url);
    try {
      const channel = await connection.createConfirmChannel();
      const eventTime = new Date(Date.now() - LAG_SECONDS * 1000).toISOString();
      const record = { eventSource: 'ceph:s3', eventName: 'ObjectCreated:Put', eventTime, s3: { bucket: { name: storage.bucket }, object: { key: prepared.key, size: 10 } } };
      channel.sendToQueue(QUEUE, Buffer.from(JSON.stringify({ Records: [record] })), { persistent: true });
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
    await expect.poll(() => completed, { timeout: 20_000 }).toEqual([prepared.key]);
    await expect.poll(() => spans.getFinishedSpans().filter((span) => span.name === 'upbeam.storage_event').length, { timeout: 5_000 }).toBe(1);

    await reader.forceFlush();
    const lag = exporter
      .getMetrics()
      .flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics))
      .find((metric) => metric.descriptor.name === 'upbeam.queue.lag') as HistogramMetricData | undefined;
    expect(lag?.descriptor.unit).toBe('s');
    const point = lag!.dataPoints[0]!.value;
    expect(point.count).toBe(1);
    expect(point.min).toBeGreaterThanOrEqual(LAG_SECONDS);
    const event = spans.getFinishedSpans().find((span) => span.name === 'upbeam.storage_event')!;
    expect(event.attributes).toMatchObject({ 'upbeam.records': 1, 'upbeam.ignored': 0, 'upbeam.outcome': 'ok' });
    const complete = spans.getFinishedSpans().find((span) => span.name === 'upbeam.complete')!;
    expect(complete.parentSpanContext?.spanId).toBe(event.spanContext().spanId);
  });
});
