// A stand-in OpenTelemetry collector for tests: a plain HTTP server on 127.0.0.1:0 taking OTLP/HTTP
// exports at POST /v1/traces, as a collector's HTTP receiver (port 4318) does. Hookline's exporter
// sends JSON (@opentelemetry/exporter-trace-otlp-http); anything else is answered 415 and recorded, so
// a test sees it instead of waiting for spans that never decode.
import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  serviceName: string | undefined;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  /** OTLP's numbering: 0 unset, 1 ok, 2 error. */
  statusCode: number;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Requests that were not OTLP/JSON trace exports: "<method> <path> <content-type>". */
  refused: string[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

function valueOf(value: OtlpValue): unknown {
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const type = request.headers['content-type'] ?? '';
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !type.startsWith('application/json')) {
        refused.push(`${request.method} ${request.url} ${type}`);
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans) {
        const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'] as string | undefined;
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              serviceName,
              name: span.name,
              kind: span.kind,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
              statusCode: span.status?.code ?? 0,
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
