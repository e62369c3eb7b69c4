// One OpenTelemetry span per attempt, started as its request is built, ended with its result. Loaded
// only by a worker that traces (delivery-worker.ts), which hands it @opentelemetry/api: this file
// imports nothing of OpenTelemetry but types, so even where a bundler inlines it (esbuild, into
// dist/worker.js and dist/start.js) a worker that does not trace loads none of it. There an attempt
// pays one null check in dispatcher.ts.
//
// The span is `webhook.attempt`, kind CLIENT, not `POST` as the HTTP client conventions name theirs:
// every attempt of every endpoint would then share one name with nothing to tell a webhook from any
// other outbound call, nor a retry from a first attempt. It carries the HTTP client attributes
// (http.request.method, url.full, server.address, server.port, http.response.status_code, error.type)
// so a backend still draws the call to the receiver, and Hookline's ids to find it in the dashboard.
// It starts as the request is built and ends with the attempt's duration as deliver.ts measured it,
// so it lasts what the attempt log says the request took; nothing in the send path waits on tracing
// (starting a span is an in-memory call, the export runs in batches off the path).
//
// Propagated to the receiver (on unless HOOKLINE_PROPAGATE_TRACE_CONTEXT=false): the request carries
// this span's W3C `traceparent` (and its `tracestate`, when a sampler gave it one), as every
// OpenTelemetry HTTP client instrumentation sends its CLIENT span's, so the receiver's SERVER span is
// its child. Never the producer's context: that is another trace, one the receiver, often a third
// party, has no business learning ids of. An unsampled span is propagated too, with flags 00, so the
// receiver's parent-based sampler drops its side as well. The headers are not signed (Standard
// Webhooks signs id.timestamp.body): a receiver uses them to join a trace, never to trust anything.
//
// Linked to, not a child of, the producer's trace (its traceparent, stored with the message): a
// message fans out to every subscribed endpoint and each retries for days (8 attempts over ~33 h by
// default), which would make the producer's trace a day long and wide; the OpenTelemetry messaging
// conventions link a consumer's spans to the creation context for the same reason.
import type * as OpenTelemetryApi from '@opentelemetry/api';
import type { Attributes, Link, Span, SpanContext, Tracer, TracerProvider } from '@opentelemetry/api';
import { publicDeliveryId, publicMessageId } from '../lib/database/ids';
import { parseTraceparent } from '../lib/domain/messages/trace-context';
import type { AttemptResult, ClaimedDelivery, EndpointSettings } from './deliver';

export const ATTEMPT_SPAN_NAME = 'webhook.attempt';

// Attribute names: the HTTP client semantic conventions' where one exists, hookline.* for the rest.
export const ATTEMPT_ATTRIBUTES = {
  messageId: 'hookline.message.id',
  deliveryId: 'hookline.delivery.id',
  endpointId: 'hookline.endpoint.id',
  appId: 'hookline.app.id',
  eventType: 'hookline.event_type',
  attempt: 'hookline.attempt',
  deliveryState: 'hookline.delivery.state',
  method: 'http.request.method',
  statusCode: 'http.response.status_code',
  url: 'url.full',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
} as const;

/** An attempt's span, started before its request: the headers to send with it, when propagated. */
export interface AttemptTrace {
  span: Span;
  /** Epoch milliseconds the span started at; it ends this plus the attempt's duration. */
  startTime: number;
  /** traceparent (and tracestate) for the request; null when propagation is off. */
  headers: Record<string, string> | null;
}

export class AttemptSpans {
  private readonly tracer: Tracer;
  /** url.full per loaded endpoint (endpoint-cache.ts replaces the object when the endpoint changes). */
  private readonly urls = new WeakMap<EndpointSettings, { full: string; host: string; port: number }>();

  constructor(
    tracerProvider: TracerProvider,
    private readonly api: typeof OpenTelemetryApi,
    /** Send the span's trace context with the request (HOOKLINE_PROPAGATE_TRACE_CONTEXT). */
    private readonly propagate = true,
  ) {
    this.tracer = tracerProvider.getTracer('hookline-worker');
  }

  /**
   * Starts the attempt's span as its request is about to be built. Never throws: null (no span, no
   * header) when the tracer fails, as a span the exporter drops is lost; the delivery goes on.
   */
  start(delivery: ClaimedDelivery, endpoint: EndpointSettings): AttemptTrace | null {
    try {
      const url = this.urlOf(endpoint);
      const startTime = Date.now();
      const span = this.tracer.startSpan(ATTEMPT_SPAN_NAME, {
        kind: this.api.SpanKind.CLIENT,
        startTime,
        // What is known before the request, for the sampler; the outcome is added at the end.
        attributes: {
          [ATTEMPT_ATTRIBUTES.messageId]: publicMessageId(delivery.messageId),
          [ATTEMPT_ATTRIBUTES.deliveryId]: publicDeliveryId(delivery.id),
          [ATTEMPT_ATTRIBUTES.endpointId]: delivery.endpointId,
          [ATTEMPT_ATTRIBUTES.appId]: delivery.appId,
          [ATTEMPT_ATTRIBUTES.eventType]: delivery.eventType,
          [ATTEMPT_ATTRIBUTES.attempt]: delivery.attemptCount + 1,
          [ATTEMPT_ATTRIBUTES.method]: endpoint.method ?? 'POST',
          [ATTEMPT_ATTRIBUTES.url]: url.full,
          [ATTEMPT_ATTRIBUTES.serverAddress]: url.host,
          [ATTEMPT_ATTRIBUTES.serverPort]: url.port,
        },
        links: this.producerLink(delivery),
        // A root span of its own trace: the attempt runs long after the producer's request ended.
        root: true,
      });
      return { span, startTime, headers: this.propagate ? this.traceHeaders(span.spanContext()) : null };
    } catch {
      return null;
    }
  }

  /**
   * Ends the attempt's span with its outcome. Never throws: it runs in the dispatcher between an
   * attempt's end and its result reaching the flusher, where an exception would leave the delivery
   * unrecorded until its lease ran out. A span that cannot be written is lost, as one the exporter
   * drops is.
   */
  end(trace: AttemptTrace, result: AttemptResult): void {
    try {
      const { span } = trace;
      const attributes: Attributes = { [ATTEMPT_ATTRIBUTES.deliveryState]: result.state };
      if (result.statusCode !== null) attributes[ATTEMPT_ATTRIBUTES.statusCode] = result.statusCode;
      if (result.errorClass !== null) attributes[ATTEMPT_ATTRIBUTES.errorType] = result.errorClass;
      span.setAttributes(attributes);
      if (result.errorClass !== null) {
        span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: result.errorMessage ?? result.errorClass });
      }
      span.end(trace.startTime + result.durationMs);
    } catch {
      // Lost: tracing never costs a delivery.
    }
  }

  /** The W3C headers of a span context, as the trace-context propagator writes them; none for an invalid one. */
  private traceHeaders(context: SpanContext): Record<string, string> | null {
    if (!this.api.isSpanContextValid(context)) return null;
    const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
    const headers: Record<string, string> = { traceparent: `00-${context.traceId}-${context.spanId}-${flags}` };
    const state = context.traceState?.serialize();
    if (state) headers.tracestate = state;
    return headers;
  }

  private producerLink(delivery: ClaimedDelivery): Link[] {
    const parent = parseTraceparent(delivery.traceparent);
    if (!parent) return [];
    return [
      {
        context: {
          traceId: parent.traceId,
          spanId: parent.spanId,
          traceFlags: parent.traceFlags & this.api.TraceFlags.SAMPLED,
          isRemote: true,
          traceState: delivery.tracestate ? this.api.createTraceState(delivery.tracestate) : undefined,
        },
      },
    ];
  }

  private urlOf(endpoint: EndpointSettings) {
    let url = this.urls.get(endpoint);
    if (!url) {
      url = redactedUrl(endpoint.url);
      this.urls.set(endpoint, url);
    }
    return url;
  }
}

/**
 * url.full as the semantic conventions ask: user and password replaced by REDACTED, and so is every
 * query value (receivers put tokens there: ?token=…, ?sig=…), names kept. The path is kept: it is
 * what tells two endpoints of one host apart; an endpoint whose path is its secret (a Slack incoming
 * webhook) shows it to whoever reads the traces, as it does to whoever reads its endpoint.
 */
export function redactedUrl(raw: string): { full: string; host: string; port: number } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { full: 'invalid', host: '', port: 0 };
  }
  if (url.username !== '' || url.password !== '') {
    url.username = 'REDACTED';
    url.password = 'REDACTED';
  }
  const query = [...url.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&');
  url.search = query;
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { full: url.toString(), host: url.hostname, port };
}
