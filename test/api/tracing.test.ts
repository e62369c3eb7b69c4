// Tracing, in-process with an in-memory exporter: a message sent through the REST API with a W3C
// traceparent is delivered by the real worker to a loopback receiver that fails its first request and
// takes the second; each attempt is one `webhook.attempt` span with the attempt's ids, status and
// duration, linked to the producer's trace. Without a traceparent (or with a malformed one) the spans
// link nowhere; a worker given no tracer provider writes none, even with a global one registered.
// The same through real processes and an OTLP receiver: test/worker/tracing-otlp.test.ts.
import { createTraceState, SamplingDecision, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ATTEMPT_ATTRIBUTES as A, ATTEMPT_SPAN_NAME } from '../../worker/attempt-spans';
import { waitForDelivery } from '../support/deliveries';
import { createApp, createEndpoint, createEventType } from '../support/fixtures';
import { startReceiver, waitUntil, type Receiver } from '../support/receiver';
import { startTestWorker, stopTestWorkers } from '../support/worker';
import { call, setUpApiTest, type ApiTestContext } from './support/api';

const PRODUCER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PRODUCER_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${PRODUCER_TRACE_ID}-${PRODUCER_SPAN_ID}-01`;

let ctx: ApiTestContext;
let receiver: Receiver;
let appId: string;
let endpointId: string;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(async () => {
  ctx = await setUpApiTest();
  // Each message's first request fails with 500, its second succeeds.
  const seen = new Set<string>();
  receiver = await startReceiver((request, response) => {
    const id = request.headers['webhook-id']!;
    const first = !seen.has(id);
    seen.add(id);
    response.writeHead(first ? 500 : 200).end(first ? 'not yet' : 'ok');
  });
  appId = await createApp(ctx.db.pool, 'tracing');
  await createEventType(ctx.db.pool, appId, 'invoice.paid');
  // A query token, to see it redacted in url.full.
  endpointId = (await createEndpoint(ctx.db.pool, appId, `${receiver.url}/hooks?token=s3cret`)).id;
});

afterAll(async () => {
  await stopTestWorkers();
  await receiver?.close();
  await provider.shutdown();
});

beforeEach(() => exporter.reset());

const send = (headers: Record<string, string> = {}) =>
  call('POST', `/v1/apps/${appId}/messages`, {
    key: ctx.adminKey,
    headers,
    body: { eventType: 'invoice.paid', payload: { invoice: 'in_1' } },
  });

const spansOf = (messageId: string, spans: ReadableSpan[] = exporter.getFinishedSpans()) =>
  spans.filter((span) => span.attributes[A.messageId] === messageId);

const requestsOf = (messageId: string) =>
  receiver.requests.filter((request) => request.headers['webhook-id'] === messageId);

const traceparentOf = (span: ReadableSpan) => {
  const context = span.spanContext();
  return `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`;
};

async function deliveredWithSpans(messageId: string): Promise<ReadableSpan[]> {
  await waitForDelivery(ctx.db.pool, messageId, (row) => row.state === 'succeeded');
  return waitUntil(() => spansOf(messageId).length === 2 && spansOf(messageId), { what: 'two attempt spans' });
}

describe('attempt spans', () => {
  it('writes one span per attempt, with its ids, outcome and duration, linked to the traceparent it was sent with', async () => {
    await startTestWorker(ctx.db.url, { tracerProvider: provider, retrySchedule: [0, 50, 100] });
    const sent = await send({ traceparent: TRACEPARENT, tracestate: 'vendor=opaque' });
    expect(sent.status, sent.text).toBe(202);
    const [stored] = (
      await ctx.db.pool.query(`SELECT traceparent, tracestate FROM hookline.messages WHERE id = hookline.uuid_of($1)`, [
        sent.body.id,
      ])
    ).rows;
    expect(stored).toEqual({ traceparent: TRACEPARENT, tracestate: 'vendor=opaque' });

    const spans = (await deliveredWithSpans(sent.body.id)).sort(
      (a, b) => Number(a.attributes[A.attempt]) - Number(b.attributes[A.attempt]),
    );
    const [delivery] = (
      await ctx.db.pool.query(
        `SELECT hookline.public_id('dlv', id) AS id, last_duration_ms FROM hookline.deliveries WHERE message_id = hookline.uuid_of($1)`,
        [sent.body.id],
      )
    ).rows;
    const [failedAttempt] = (
      await ctx.db.pool.query(`SELECT duration_ms FROM hookline.attempts WHERE delivery_id = hookline.uuid_of($1)`, [
        delivery.id,
      ])
    ).rows;
    const common = {
      [A.messageId]: sent.body.id,
      [A.deliveryId]: delivery.id,
      [A.endpointId]: endpointId,
      [A.appId]: appId,
      [A.eventType]: 'invoice.paid',
      [A.method]: 'POST',
      [A.url]: `${receiver.url}/hooks?token=REDACTED`,
      [A.serverAddress]: '127.0.0.1',
      [A.serverPort]: receiver.port,
    };
    expect(spans.map((span) => [span.name, span.kind])).toEqual([
      [ATTEMPT_SPAN_NAME, SpanKind.CLIENT],
      [ATTEMPT_SPAN_NAME, SpanKind.CLIENT],
    ]);
    expect(spans[0]!.attributes).toEqual({
      ...common,
      [A.attempt]: 1,
      [A.deliveryState]: 'pending',
      [A.statusCode]: 500,
      [A.errorType]: 'http_5xx',
    });
    expect(spans[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'HTTP 500' });
    expect(spans[1]!.attributes).toEqual({
      ...common,
      [A.attempt]: 2,
      [A.deliveryState]: 'succeeded',
      [A.statusCode]: 200,
    });
    expect(spans[1]!.status.code).toBe(SpanStatusCode.UNSET);
    // The span lasts what the attempt log says the request took.
    const millis = (span: ReadableSpan) => span.duration[0] * 1000 + span.duration[1] / 1e6;
    expect(millis(spans[0]!)).toBeCloseTo(failedAttempt.duration_ms, 0);
    expect(millis(spans[1]!)).toBeCloseTo(delivery.last_duration_ms, 0);
    for (const span of spans) {
      expect(span.links.map((link) => link.context)).toEqual([
        expect.objectContaining({ traceId: PRODUCER_TRACE_ID, spanId: PRODUCER_SPAN_ID, isRemote: true }),
      ]);
      expect(span.links[0]!.context.traceState?.get('vendor')).toBe('opaque');
      // Linked, not parented: each attempt is the root of a trace of its own.
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).not.toBe(PRODUCER_TRACE_ID);
    }
  });

  it('links nowhere for a message sent without a traceparent, or with a malformed one (ignored, not refused)', async () => {
    await startTestWorker(ctx.db.url, { tracerProvider: provider, retrySchedule: [0, 50, 100] });
    const plain = await send();
    // Upper-case hex and an all-zero trace id: both invalid by the W3C specification.
    const malformed = await send({ traceparent: TRACEPARENT.toUpperCase(), tracestate: 'vendor=opaque' });
    const zeros = await send({ traceparent: `00-${'0'.repeat(32)}-${PRODUCER_SPAN_ID}-01` });
    for (const sent of [plain, malformed, zeros]) {
      expect(sent.status, sent.text).toBe(202);
      const [stored] = (
        await ctx.db.pool.query(
          `SELECT traceparent, tracestate FROM hookline.messages WHERE id = hookline.uuid_of($1)`,
          [sent.body.id],
        )
      ).rows;
      expect(stored).toEqual({ traceparent: null, tracestate: null });
      const spans = await deliveredWithSpans(sent.body.id);
      expect(spans.map((span) => span.links)).toEqual([[], []]);
    }
  });

  it('writes no span from a worker given no tracer provider, even with a global one registered', async () => {
    await stopTestWorkers();
    trace.setGlobalTracerProvider(provider);
    try {
      await startTestWorker(ctx.db.url, { retrySchedule: [0, 50, 100] });
      const sent = await send({ traceparent: TRACEPARENT });
      await waitForDelivery(ctx.db.pool, sent.body.id, (row) => row.state === 'succeeded');
      const requests = requestsOf(sent.body.id);
      expect(requests).toHaveLength(2);
      expect(exporter.getFinishedSpans()).toEqual([]);
      // Tracing off: no trace header leaves, not even the producer's.
      for (const request of requests) {
        expect(request.headers.traceparent).toBeUndefined();
        expect(request.headers.tracestate).toBeUndefined();
      }
    } finally {
      trace.disable();
    }
  });
});

describe('trace context to the receiver', () => {
  it("sends each attempt its own span's traceparent, never the producer's, and keeps it with the attempt's request headers", async () => {
    await stopTestWorkers();
    await startTestWorker(ctx.db.url, { tracerProvider: provider, retrySchedule: [0, 50, 100] });
    const sent = await send({ traceparent: TRACEPARENT, tracestate: 'vendor=opaque' });
    expect(sent.status, sent.text).toBe(202);
    const spans = (await deliveredWithSpans(sent.body.id)).sort(
      (a, b) => Number(a.attributes[A.attempt]) - Number(b.attributes[A.attempt]),
    );
    // The receiver answered 500 to the first request and 200 to the second: attempt 1, then attempt 2.
    const requests = requestsOf(sent.body.id);
    expect(requests.map((request) => request.headers.traceparent)).toEqual(spans.map(traceparentOf));
    expect(new Set(spans.map(traceparentOf)).size).toBe(2);
    for (const request of requests) {
      expect(request.headers.traceparent).not.toContain(PRODUCER_TRACE_ID);
      // The attempt span is a root with no trace state: the producer's is not passed on.
      expect(request.headers.tracestate).toBeUndefined();
    }
    // "Copy as curl" shows the stored request headers: the failed attempt's include what was sent.
    const [failed] = (
      await ctx.db.pool.query(
        `SELECT a.request_headers FROM hookline.attempts AS a JOIN hookline.deliveries AS d ON d.id = a.delivery_id
          WHERE d.message_id = hookline.uuid_of($1) AND a.attempt_number = 1`,
        [sent.body.id],
      )
    ).rows;
    expect(failed.request_headers.traceparent).toBe(traceparentOf(spans[0]!));
  });

  it("sends the span's tracestate when the sampler gave it one, and an unsampled span's traceparent with flags 00", async () => {
    const decision = { current: SamplingDecision.RECORD_AND_SAMPLED };
    const sampler: Sampler = {
      shouldSample: () => ({ decision: decision.current, traceState: createTraceState('hookline=t61') }),
      toString: () => 'test sampler',
    };
    const own = new InMemorySpanExporter();
    const sampling = new BasicTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(own)] });
    try {
      await stopTestWorkers();
      await startTestWorker(ctx.db.url, { tracerProvider: sampling, retrySchedule: [0, 50, 100] });
      const sampled = await send();
      await waitForDelivery(ctx.db.pool, sampled.body.id, (row) => row.state === 'succeeded');
      const spans = await waitUntil(
        () =>
          spansOf(sampled.body.id, own.getFinishedSpans()).length === 2 &&
          spansOf(sampled.body.id, own.getFinishedSpans()),
        { what: 'two sampled spans' },
      );
      const byAttempt = spans.sort((a, b) => Number(a.attributes[A.attempt]) - Number(b.attributes[A.attempt]));
      const requests = requestsOf(sampled.body.id);
      expect(requests.map((request) => request.headers.traceparent)).toEqual(byAttempt.map(traceparentOf));
      expect(requests.map((request) => request.headers.tracestate)).toEqual(['hookline=t61', 'hookline=t61']);

      decision.current = SamplingDecision.NOT_RECORD;
      const unsampled = await send();
      await waitForDelivery(ctx.db.pool, unsampled.body.id, (row) => row.state === 'succeeded');
      expect(spansOf(unsampled.body.id, own.getFinishedSpans())).toEqual([]);
      for (const request of requestsOf(unsampled.body.id)) {
        expect(request.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
      }
    } finally {
      await stopTestWorkers();
      await sampling.shutdown();
    }
  });

  it('sends no trace header with HOOKLINE_PROPAGATE_TRACE_CONTEXT=false, and still writes the spans', async () => {
    await stopTestWorkers();
    await startTestWorker(ctx.db.url, {
      tracerProvider: provider,
      propagateTraceContext: false,
      retrySchedule: [0, 50, 100],
    });
    const sent = await send({ traceparent: TRACEPARENT, tracestate: 'vendor=opaque' });
    expect(await deliveredWithSpans(sent.body.id)).toHaveLength(2);
    const requests = requestsOf(sent.body.id);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.headers.traceparent).toBeUndefined();
      expect(request.headers.tracestate).toBeUndefined();
    }
  });
});
