// Next.js runs register() once when the web server starts (scripts/start.ts calls next().prepare()).
// With a collector configured (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT), it registers the
// process's global tracer provider, service name hookline-web unless OTEL_SERVICE_NAME: Next.js then
// writes its own SERVER span for every request (named by method and route, e.g. "POST
// /api/v1/apps/[appId]/messages"), continuing a W3C traceparent the client sent. Without one, nothing
// of OpenTelemetry is imported.
import { loadConfig } from './lib/runtime/env';
import { tracingSettingsFromConfig } from './lib/runtime/tracing-settings';

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const settings = tracingSettingsFromConfig(loadConfig(), 'hookline-web');
  if (!settings) return;
  const { startTracing, WEB_TRACING } = await import('./lib/runtime/start-tracing');
  // Kept where scripts/start.ts finds it, to send the last requests' spans before the process ends.
  (globalThis as Record<symbol, unknown>)[WEB_TRACING] = await startTracing(settings, { register: true });
}
