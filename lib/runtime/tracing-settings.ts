// Whether this process traces, and how, from the validated configuration (lib/runtime/env.ts). Pure and
// free of OpenTelemetry imports: with tracing off, nothing of the SDK is ever loaded
// (lib/runtime/start-tracing.ts imports it only when these settings say so).
import type { Config } from './env';

export type TracesSampler = Config['OTEL_TRACES_SAMPLER'];

export interface TracingSettings {
  serviceName: string;
  /** Where spans are posted: OTLP over HTTP, JSON bodies. */
  tracesUrl: string;
  headers: Record<string, string>;
  sampler: TracesSampler;
  samplerRatio: number;
}

type TracingConfig = Pick<
  Config,
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_HEADERS'
  | 'OTEL_SERVICE_NAME'
  | 'OTEL_TRACES_SAMPLER'
  | 'OTEL_TRACES_SAMPLER_ARG'
  | 'OTEL_SDK_DISABLED'
>;

/**
 * null (no tracing) unless a collector is named. The OpenTelemetry default of http://localhost:4318 is
 * not assumed: an SRE turns tracing on by pointing it somewhere, and a deployment that never heard of
 * it pays nothing. `defaultServiceName` names the part (hookline-worker, hookline-web) unless
 * OTEL_SERVICE_NAME says otherwise.
 */
export function tracingSettingsFromConfig(config: TracingConfig, defaultServiceName: string): TracingSettings | null {
  if (config.OTEL_SDK_DISABLED) return null;
  const tracesUrl =
    config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (config.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
      ? undefined
      : // The specification's rule: the general endpoint is a base, each signal appends its path.
        `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (tracesUrl === undefined) return null;
  return {
    serviceName: config.OTEL_SERVICE_NAME ?? defaultServiceName,
    tracesUrl,
    headers: config.OTEL_EXPORTER_OTLP_HEADERS,
    sampler: config.OTEL_TRACES_SAMPLER,
    samplerRatio: config.OTEL_TRACES_SAMPLER_ARG,
  };
}
