// Starts OpenTelemetry tracing for one part of Hookline (the worker, the web server), and only when
// lib/runtime/tracing-settings.ts returned settings: every OpenTelemetry package is imported here, with
// a dynamic import, so a process that does not trace never loads one (test/worker/tracing-off.test.ts).
import type { TracerProvider } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TracingSettings } from './tracing-settings';

export interface Tracing {
  tracerProvider: TracerProvider;
  /** Sends what is still buffered and stops exporting; for a stopping process. */
  shutdown: () => Promise<void>;
}

/**
 * A tracer provider exporting to the settings' collector through a batch processor: spans wait in
 * memory (2,048 at most, the SDK's default; beyond, new ones are dropped, never the process's memory)
 * and leave in batches of up to 512 every 5 s, off the delivery path. `register`: also make it the
 * process's global provider with the W3C trace-context propagator and an AsyncLocalStorage context,
 * which Next.js's own spans need (instrumentation.ts); the worker keeps its provider to itself.
 * `exporter` replaces the OTLP exporter (the benchmark's sink).
 */
export async function startTracing(
  settings: TracingSettings,
  options: { register?: boolean; exporter?: SpanExporter } = {},
): Promise<Tracing> {
  const [sdk, resources, semconv, otlp] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  const ratio = new sdk.TraceIdRatioBasedSampler(settings.samplerRatio);
  const root = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
  };
  const sampler = settings.sampler.startsWith('parentbased_')
    ? new sdk.ParentBasedSampler({ root: root[settings.sampler.slice('parentbased_'.length) as keyof typeof root] })
    : root[settings.sampler as keyof typeof root];
  const exporter =
    options.exporter ?? new otlp.OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers });
  const tracerProvider = new sdk.BasicTracerProvider({
    sampler,
    resource: resources.resourceFromAttributes({ [semconv.ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  if (options.register) {
    const [api, core, contextAsyncHooks] = await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/core'),
      import('@opentelemetry/context-async-hooks'),
    ]);
    api.context.setGlobalContextManager(new contextAsyncHooks.AsyncLocalStorageContextManager().enable());
    api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
    api.trace.setGlobalTracerProvider(tracerProvider);
  }
  return { tracerProvider, shutdown: () => tracerProvider.shutdown() };
}

/**
 * Where instrumentation.ts leaves the web server's tracing for scripts/start.ts to stop: Next.js
 * compiles instrumentation.ts into its own bundle, so the two share no module, only the process.
 */
export const WEB_TRACING = Symbol.for('hookline.webTracing');

export function webTracing(): Tracing | null {
  return ((globalThis as Record<symbol, unknown>)[WEB_TRACING] as Tracing | undefined) ?? null;
}

// A stopping process waits this long for its last spans to reach the collector: the exporter's own
// timeout is 10 s, and an unreachable collector must not hold a deploy's restart that long.
const TRACING_STOP_DEADLINE_MS = 2000;

/** Flushes and stops tracing, giving up after 2 s; never throws (a lost span must not fail a stop). */
export async function stopTracing(tracing: Tracing | null): Promise<void> {
  if (!tracing) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    tracing.shutdown().catch(() => {}),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, TRACING_STOP_DEADLINE_MS))),
  ]);
  clearTimeout(timer);
}
