// instrumentation.ts: the app's OpenTelemetry SDK, registered once when the server starts, before its first
// request (Next.js calls `register` from instrumentation.ts; a Node server imports this file first). Upbeam's
// handler needs no setting: its spans and metrics go to whatever is registered here.
import { metrics } from '@opentelemetry/api';
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, ConsoleSpanExporter, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export function register(): void {
  // Spans (upbeam.prepare, upbeam.complete, ...). `register()` also installs the async context manager, so
  // that they nest under the request's span of the app's HTTP instrumentation. In production, export to
  // your collector (OTLPTraceExporter of @opentelemetry/exporter-trace-otlp-http) in place of the console.
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(new ConsoleSpanExporter())] }).register();

  // Metrics (upbeam.preparations, upbeam.refusals, upbeam.bytes.*, upbeam.hook.duration, upbeam.queue.lag),
  // read once a minute.
  const reader = new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), exportIntervalMillis: 60_000 });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
}
