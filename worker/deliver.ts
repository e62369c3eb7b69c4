// One HTTP attempt for one claimed delivery. Never throws: whatever the receiver does (refuse,
// reset, hang, answer 500, answer 50 MB) becomes an AttemptResult, data for the attempt log. Only
// the database can stop the worker, never a receiver.
import { signatureHeader } from '../lib/webhooks/sign';
import { classifyError, classifyStatus, describeError, type ErrorClass } from './classify-error';
import type { HttpPools } from './http-pools';
import { nextRetryDelay, parseRetryAfter } from './retry-schedule';

export interface ClaimedDelivery {
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
}

export interface EndpointSettings {
  id: string;
  appId: string;
  url: string;
  enabled: boolean;
  maxConcurrency: number;
  headers: Record<string, string>;
  secrets: string[];
}

export type DeliveryState = 'succeeded' | 'pending' | 'dead';

export interface AttemptResult {
  deliveryId: string;
  endpointId: string;
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
  retrySchedule: readonly number[];
  userAgent: string;
  random?: () => number;
}

/**
 * The body is a Standard Webhooks envelope. It is rebuilt for every attempt from immutable columns
 * (the event type, the message's created_at, the stored payload), so every retry sends the same
 * bytes under the same webhook-id, and a receiver can deduplicate on either.
 */
export function buildBody(delivery: Pick<ClaimedDelivery, 'eventType' | 'createdAt' | 'payload'>): string {
  return `{"type":${JSON.stringify(delivery.eventType)},"timestamp":"${delivery.createdAt.toISOString()}","data":${delivery.payload}}`;
}

export async function deliver(
  delivery: ClaimedDelivery,
  endpoint: EndpointSettings,
  options: DeliverOptions,
): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const body = buildBody(delivery);
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const requestHeaders: Record<string, string> = {
    ...endpoint.headers,
    'content-type': 'application/json',
    'user-agent': options.userAgent,
    'webhook-id': delivery.messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(endpoint.secrets, delivery.messageId, timestamp, body),
  };
  let receivedHeaders = false;
  const base = { deliveryId: delivery.id, endpointId: delivery.endpointId, startedAt, requestHeaders };
  const attemptsMade = delivery.attemptCount + 1;
  const retry = (retryAfterMs: number | null) => {
    const delayMs = nextRetryDelay(options.retrySchedule, attemptsMade, { retryAfterMs, random: options.random });
    return delayMs === null
      ? { state: 'dead' as const, nextAttemptAt: null }
      : { state: 'pending' as const, nextAttemptAt: new Date(Date.now() + delayMs) };
  };

  try {
    const response = await options.http.send({
      poolKey: endpoint.id,
      url: new URL(endpoint.url),
      connections: endpoint.maxConcurrency,
      headers: requestHeaders,
      body,
      onHeaders: () => (receivedHeaders = true),
    });
    const durationMs = performance.now() - started;
    const errorClass = classifyStatus(response.statusCode);
    const retryAfterMs =
      response.statusCode === 429 || response.statusCode === 503 ? parseRetryAfter(response.headers['retry-after']) : null;
    return {
      ...base,
      ...(errorClass === null ? { state: 'succeeded' as const, nextAttemptAt: null } : retry(retryAfterMs)),
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
      ...base,
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
