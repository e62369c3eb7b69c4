// The pure parts of tracing, table-driven: which OTEL_* values turn it on and how, the startup error a
// bad value gives (naming the variable), the W3C traceparent reading, and url.full's redaction.
import { describe, expect, it } from 'vitest';
import { parseTraceparent, traceContextOf } from '../../lib/domain/messages/trace-context';
import { ConfigError, loadConfig } from '../../lib/runtime/env';
import { tracingSettingsFromConfig } from '../../lib/runtime/tracing-settings';
import { redactedUrl } from '../../worker/attempt-spans';
import { workerOptionsFromConfig } from '../../worker/start-worker';

const settingsOf = (env: Record<string, string>, part = 'hookline-worker') =>
  tracingSettingsFromConfig(loadConfig(env), part);

describe('tracing settings from OTEL_* variables', () => {
  it('is off without a collector, or with OTEL_SDK_DISABLED=true', () => {
    expect(settingsOf({})).toBeNull();
    expect(settingsOf({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBeNull();
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, 'http://c:4318/v1/traces'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c.example/otlp/' }, 'https://c.example/otlp/v1/traces'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' }, 'http://c:4318/custom'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/t' },
      'http://b:4318/t',
    ],
  ])('posts spans to the traces URL of %o', (env, tracesUrl) => {
    expect(settingsOf(env)?.tracesUrl).toBe(tracesUrl);
  });

  it('names the part unless OTEL_SERVICE_NAME does, and reads the sampler and headers', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(settingsOf(endpoint, 'hookline-web')).toEqual({
      serviceName: 'hookline-web',
      tracesUrl: 'http://c:4318/v1/traces',
      headers: {},
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
    expect(
      settingsOf({
        ...endpoint,
        OTEL_SERVICE_NAME: 'webhooks',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, Authorization=Bearer%20t',
      }),
    ).toMatchObject({
      serviceName: 'webhooks',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      headers: { 'x-api-key': 'abc==', authorization: 'Bearer t' },
    });
  });

  it('propagates trace context to receivers unless HOOKLINE_PROPAGATE_TRACE_CONTEXT=false', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(workerOptionsFromConfig(loadConfig(endpoint), '').propagateTraceContext).toBe(true);
    expect(
      workerOptionsFromConfig(loadConfig({ ...endpoint, HOOKLINE_PROPAGATE_TRACE_CONTEXT: 'false' }), '')
        .propagateTraceContext,
    ).toBe(false);
  });

  it.each([
    ['HOOKLINE_PROPAGATE_TRACE_CONTEXT', 'sometimes', 'HOOKLINE_PROPAGATE_TRACE_CONTEXT must be true or false'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL'],
    [
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'grpc://c:4317',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL',
    ],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'api-key', 'OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'k=%zz', 'OTEL_EXPORTER_OTLP_HEADERS: the value of k is not percent-encoded'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc', 'OTEL_EXPORTER_OTLP_PROTOCOL must be http/json or http/protobuf'],
    ['OTEL_TRACES_SAMPLER', 'sometimes', 'OTEL_TRACES_SAMPLER must be one of always_on'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5', 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'],
    ['OTEL_SDK_DISABLED', 'maybe', 'OTEL_SDK_DISABLED must be true or false'],
    ['OTEL_SERVICE_NAME', ' ', 'OTEL_SERVICE_NAME must not be empty'],
  ])('refuses %s=%s at startup, naming the variable', (name, value, message) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join('\n')).toContain(message);
  });
});

describe('W3C traceparent', () => {
  const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const span = '00f067aa0ba902b7';
  it.each([
    [`00-${trace}-${span}-01`, { traceId: trace, spanId: span, traceFlags: 1 }],
    [`00-${trace}-${span}-00`, { traceId: trace, spanId: span, traceFlags: 0 }],
    [` 00-${trace}-${span}-01 `, { traceId: trace, spanId: span, traceFlags: 1 }],
    // A later version may append fields; a version-00 reader takes the first four.
    [`01-${trace}-${span}-01-extra`, { traceId: trace, spanId: span, traceFlags: 1 }],
    [`00-${trace}-${span}-01-extra`, null],
    [`ff-${trace}-${span}-01`, null],
    [`00-${'0'.repeat(32)}-${span}-01`, null],
    [`00-${trace}-${'0'.repeat(16)}-01`, null],
    [`00-${trace.toUpperCase()}-${span}-01`, null],
    [`00-${trace}-${span}`, null],
    ['', null],
  ])('reads %j as %o', (value, parsed) => {
    expect(parseTraceparent(value)).toEqual(parsed);
  });

  it('keeps a tracestate only with a valid traceparent, and only up to 512 printable characters', () => {
    const traceparent = `00-${trace}-${span}-01`;
    expect(traceContextOf(traceparent, 'a=1,b=2')).toEqual({ traceparent, tracestate: 'a=1,b=2' });
    expect(traceContextOf(traceparent, null)).toEqual({ traceparent, tracestate: null });
    expect(traceContextOf(traceparent, `a=${'x'.repeat(511)}`)).toEqual({ traceparent, tracestate: null });
    expect(traceContextOf(traceparent, 'a=\u0001')).toEqual({ traceparent, tracestate: null });
    expect(traceContextOf('garbage', 'a=1')).toBeNull();
    expect(traceContextOf(null, 'a=1')).toBeNull();
  });
});

describe('url.full of an attempt span', () => {
  it.each([
    ['https://hooks.example.com/in', 'https://hooks.example.com/in', 443],
    ['http://127.0.0.1:8080/a?token=s3cret&x=1', 'http://127.0.0.1:8080/a?token=REDACTED&x=REDACTED', 8080],
    ['https://user:pass@h.example/p', 'https://REDACTED:REDACTED@h.example/p', 443],
  ])('of %s is %s', (raw, full, port) => {
    expect(redactedUrl(raw)).toMatchObject({ full, port });
  });
});
