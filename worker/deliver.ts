// One HTTP attempt for one claimed delivery. Never throws: whatever the receiver does (refuse,
// reset, hang, answer 500, answer 50 MB) becomes an AttemptResult, data for the attempt log. Only
// the database can stop the worker, never a receiver.
import { publicMessageId } from '../lib/database/ids';
import { isReservedHeader } from '../lib/domain/webhooks/reserved-headers';
import { signatureHeader } from '../lib/domain/webhooks/sign';
import { realClock, type Clock } from './clock';
import { classifyError, classifyStatus, describeError, type ErrorClass } from './classify-error';
import type { HttpMethod, HttpPools } from './http-pools';
import { nextRetryDelay, parseRetryAfter } from './retry-schedule';

export interface ClaimedDelivery {
  /** The delivery's and its message's ids as stored (uuid text); their public forms are made where
   * they leave the worker (the webhook-id header, attempt spans): lib/database/ids.ts. */
  id: string;
  appId: string;
  endpointId: string;
  messageId: string;
  /** Attempts recorded before this one. */
  attemptCount: number;
  eventType: string;
  createdAt: Date;
  /** The payload as Postgres prints it (jsonb::text): never parsed, so the body costs no JSON work. */
  payload: string;
  /** The W3C trace context the message was sent with, for the attempt span's link (attempt-spans.ts). */
  traceparent?: string | null;
  tracestate?: string | null;
}

export interface EndpointSettings {
  id: string;
  appId: string;
  url: string;
  enabled: boolean;
  maxConcurrency: number;
  /** Requests a second to this endpoint from all workers together (endpoint-rate-limit.ts); null: no limit. */
  rateLimitPerSecond?: number | null;
  headers: Record<string, string>;
  secrets: string[];
  /** Created by hookline.http_post (the pg_net drop-in): the body is the payload itself, as pg_net sends it. */
  implicit: boolean;
  /** This endpoint's attempt deadline (its own or its app's); null: the worker's. */
  timeoutMs: number | null;
  /** This endpoint's retry schedule (its own or its app's); null: the worker's. */
  retryScheduleMs?: readonly number[] | null;
  /** An operational endpoint with a payload template: the payload was rendered at emission and is the body. */
  rawBody?: boolean;
  /** GET and DELETE only for implicit endpoints (hookline.http_get / http_delete); absent means POST. */
  method?: HttpMethod;
}

export type DeliveryState = 'succeeded' | 'pending' | 'dead';

export interface AttemptResult {
  deliveryId: string;
  endpointId: string;
  /** Attempts recorded before this one (the claimed row's): the flush's fence names the attempt. */
  attemptCount: number;
  state: DeliveryState;
  /** When a 'pending' delivery is due again. */
  nextAttemptAt: Date | null;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  errorClass: ErrorClass | null;
  errorMessage: string | null;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseTruncated: boolean;
}

export interface DeliverOptions {
  http: HttpPools;
  /** The deployment's schedule, for endpoints whose own and whose app's are unset. */
  retrySchedule: readonly number[];
  userAgent: string;
  random?: () => number;
  /**
   * The attempt span's W3C traceparent and tracestate (worker/attempt-spans.ts), sent with the request
   * and kept with the attempt's request headers, so "copy as curl" shows what was sent. Absent when
   * tracing or its propagation is off: then no trace header leaves, whatever the producer sent.
   */
  traceHeaders?: Record<string, string> | null;
  /** Times the attempt's start and its retry's due time (clock.ts); the request's deadline stays real. */
  clock?: Clock;
}

/**
 * The body is a Standard Webhooks envelope. It is rebuilt for every attempt from immutable columns
 * (the event type, the message's created_at, the stored payload), so every retry sends the same
 * bytes under the same webhook-id, and a receiver can deduplicate on either. Implicit endpoints
 * (hookline.http_post) get the payload alone, byte for byte what pg_net would have posted.
 * An empty string is no body: a GET never has one, and a DELETE has none when hookline.http_delete
 * was given none (stored as the JSON null payload, migration 20261125130000_http_get_delete).
 */
export function buildBody(
  delivery: Pick<ClaimedDelivery, 'eventType' | 'createdAt' | 'payload'>,
  endpoint: Pick<EndpointSettings, 'implicit' | 'rawBody' | 'method'> = { implicit: false },
): string {
  if (endpoint.method === 'GET' || (endpoint.method === 'DELETE' && delivery.payload === 'null')) return '';
  // Operational events (issue 14): a templated endpoint's payload is already the whole body.
  if (endpoint.implicit || endpoint.rawBody) return delivery.payload;
  return `{"type":${JSON.stringify(delivery.eventType)},"timestamp":"${delivery.createdAt.toISOString()}","data":${delivery.payload}}`;
}

// An endpoint's custom headers, lower-cased and without the ones the worker owns, once per loaded
// endpoint (endpoint-cache.ts replaces the object when the endpoint changes) rather than per request.
const customHeadersOf = new WeakMap<Record<string, string>, [string, string][]>();

function customHeaders(stored: Record<string, string>): [string, string][] {
  // The column is jsonb: only an object holds headers (raw SQL could store anything else).
  if (typeof stored !== 'object' || stored === null) return [];
  let headers = customHeadersOf.get(stored);
  if (!headers) {
    // Headers the worker owns: stored custom headers cannot replace the signature, the id or the framing.
    headers = Object.entries(stored)
      .filter(([name]) => !isReservedHeader(name))
      .map(([name, value]) => [name.toLowerCase(), String(value)]);
    customHeadersOf.set(stored, headers);
  }
  return headers;
}

export function buildRequestHeaders(
  delivery: ClaimedDelivery,
  endpoint: EndpointSettings,
  body: string,
  timestampSeconds: number,
  userAgent: string,
  traceHeaders?: Record<string, string> | null,
): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  for (const [name, value] of customHeaders(endpoint.headers)) headers[name] = value;
  // After the custom headers: a stored traceparent must not pose as this attempt's span. Outside the
  // signature, which covers id, timestamp and body only (Standard Webhooks).
  if (traceHeaders) for (const [name, value] of Object.entries(traceHeaders)) headers[name] = value;
  // No body, no content type: the signature below still covers the (empty) body.
  if (body !== '') headers['content-type'] = 'application/json';
  // The message's public id (the worker holds ids as PostgreSQL stores them: lib/database/ids.ts).
  const webhookId = publicMessageId(delivery.messageId);
  headers['webhook-id'] = webhookId;
  headers['webhook-timestamp'] = String(timestampSeconds);
  headers['webhook-signature'] = signatureHeader(endpoint.secrets, webhookId, timestampSeconds, body);
  return headers;
}

// Parsed once per loaded endpoint, not per request. Only read (origin, path, protocol) afterwards.
const parsedUrls = new WeakMap<EndpointSettings, URL>();

function endpointUrl(endpoint: EndpointSettings): URL {
  let url = parsedUrls.get(endpoint);
  if (!url) {
    url = new URL(endpoint.url);
    parsedUrls.set(endpoint, url);
  }
  return url;
}

export async function deliver(
  delivery: ClaimedDelivery,
  endpoint: EndpointSettings,
  options: DeliverOptions,
): Promise<AttemptResult> {
  const clock = options.clock ?? realClock;
  const startedAt = new Date(clock.now());
  const started = performance.now();
  let receivedHeaders = false;
  let requestHeaders: Record<string, string> = {};
  const attemptsMade = delivery.attemptCount + 1;
  const retry = (retryAfterMs: number | null) => {
    const schedule = endpoint.retryScheduleMs ?? options.retrySchedule;
    const delayMs = nextRetryDelay(schedule, attemptsMade, { retryAfterMs, random: options.random });
    return delayMs === null
      ? { state: 'dead' as const, nextAttemptAt: null }
      : { state: 'pending' as const, nextAttemptAt: new Date(clock.now() + delayMs) };
  };

  try {
    const body = buildBody(delivery, endpoint);
    requestHeaders = buildRequestHeaders(
      delivery,
      endpoint,
      body,
      Math.floor(startedAt.getTime() / 1000),
      options.userAgent,
      options.traceHeaders,
    );
    const url = endpointUrl(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw Object.assign(new Error(`${url.protocol} URLs are not delivered; use http or https`), {
        code: 'ERR_INVALID_URL',
      });
    }
    const response = await options.http.send({
      poolKey: endpoint.id,
      method: endpoint.method ?? 'POST',
      url,
      connections: endpoint.maxConcurrency,
      headers: requestHeaders,
      body,
      timeoutMs: endpoint.timeoutMs ?? undefined,
      onHeaders: () => (receivedHeaders = true),
    });
    const durationMs = performance.now() - started;
    const errorClass = classifyStatus(response.statusCode);
    const retryAfterMs =
      response.statusCode === 429 || response.statusCode === 503
        ? parseRetryAfter(response.headers['retry-after'], clock.now())
        : null;
    // 410 Gone: the receiver says this endpoint no longer exists. Retrying cannot help; the flush
    // disables the endpoint, and an operator who re-enables it can replay the dead deliveries.
    const outcome =
      errorClass === null
        ? { state: 'succeeded' as const, nextAttemptAt: null }
        : response.statusCode === 410
          ? { state: 'dead' as const, nextAttemptAt: null }
          : retry(retryAfterMs);
    return {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attemptCount: delivery.attemptCount,
      startedAt,
      requestHeaders,
      ...outcome,
      durationMs,
      statusCode: response.statusCode,
      errorClass,
      errorMessage: errorClass === null ? null : `HTTP ${response.statusCode}`,
      responseHeaders: response.headers,
      responseBody: response.body,
      responseTruncated: response.truncated,
    };
  } catch (error) {
    return {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attemptCount: delivery.attemptCount,
      startedAt,
      requestHeaders,
      ...retry(null),
      durationMs: performance.now() - started,
      statusCode: null,
      errorClass: classifyError(error, { receivedHeaders }),
      errorMessage: describeError(error),
      responseHeaders: null,
      responseBody: null,
      responseTruncated: false,
    };
  }
}
