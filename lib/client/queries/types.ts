// The REST API's resources as the dashboard reads them (see the API contract; timestamps are ISO strings).

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface App {
  id: string;
  name: string;
  /** The app's default for its endpoints, e.g. "0,5s,5m"; null: the deployment's. */
  retrySchedule: string | null;
  timeoutMs: number | null;
  createdAt: string;
  updatedAt: string;
  portalFrameAncestors?: string[];
  summary?: {
    endpoints: number;
    attempts24h: number;
    successRate24h: number | null;
    queued: number | null;
    queuedSampledAt: string | null;
  };
}

export interface EventType {
  id: string;
  appId: string;
  name: string;
  description: string | null;
  schema: unknown;
  archived: boolean;
  /** Derived from the schema by the API (lib/domain/event-types/example-from-schema.ts). */
  example?: unknown;
  createdAt: string;
  updatedAt: string;
}

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface EndpointHealth {
  circuitState: CircuitState;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  lastErrorClass: string | null;
  successRate24h: number | null;
  attempts24h: number;
  pending: number;
}

export interface Endpoint {
  id: string;
  appId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  maxConcurrency: number;
  rateLimitPerSecond: number | null;
  headers: Record<string, string>;
  implicit: boolean;
  /** The endpoint's own setting; null: its app's, else the deployment's. */
  retrySchedule: string | null;
  timeoutMs: number | null;
  /** What the worker applies, and where each value comes from. */
  retryPolicy: RetryPolicy;
  createdAt: string;
  updatedAt: string;
  health?: EndpointHealth;
}

export interface RetryPolicy {
  retrySchedule: string;
  maxAttempts: number;
  retryScheduleFrom: 'endpoint' | 'app' | 'deployment';
  timeoutMs: number;
  timeoutFrom: 'endpoint' | 'app' | 'deployment';
}

export interface EndpointSecret {
  secret: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface Message {
  id: string;
  appId: string;
  eventType: string;
  payload: unknown;
  idempotencyKey: string | null;
  createdAt: string;
}

export interface MessageOutcome {
  deliveries: number;
  waiting: number;
  retrying: number;
  delivering: number;
  succeeded: number;
  dead: number;
  cancelled: number;
}

export interface MessageWithOutcome extends Message {
  outcome: MessageOutcome;
}

export { DELIVERY_STATES, type DeliveryState, type DeliveryStateFilter } from '../../domain/deliveries/delivery-states';
import type { DeliveryState } from '../../domain/deliveries/delivery-states';

export interface Delivery {
  id: string;
  appId: string;
  messageId: string;
  endpointId: string;
  endpointUrl: string;
  eventType: string;
  state: DeliveryState;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastErrorClass: string | null;
  lastDurationMs: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface Attempt {
  /** null: a success kept on its delivery row (keptOnDelivery). */
  id: string | null;
  deliveryId: string;
  attemptNumber: number;
  workerId: string | null;
  startedAt: string;
  durationMs: number | null;
  statusCode: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  requestHeaders: Record<string, unknown> | null;
  responseHeaders: Record<string, unknown> | null;
  responseBody: string | null;
  responseTruncated: boolean;
  keptOnDelivery: boolean;
}

export interface DeliveryWait {
  reason: 'endpoint_disabled' | 'circuit_open' | 'retry_scheduled' | 'due';
  until: string | null;
  nextAttempt: number;
  maxAttempts: number;
  message: string;
}

export interface DeliveryDetail extends Delivery {
  wait: DeliveryWait | null;
  request: { method: 'POST'; url: string; body: string };
  attempts: Attempt[];
  message: Message;
}

export interface MessageDetail extends Message {
  deliveries: Delivery[];
}

export interface StatsPoint {
  time: string;
  succeeded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  /** Null where no worker sampled the queue during the bucket; the last point is counted live. */
  waiting: number | null;
  retrying: number | null;
  delivering: number | null;
  dead: number | null;
  errorClasses: Record<string, number>;
  statusCodes: Record<string, number>;
}

export interface Stats {
  from: string;
  to: string;
  bucketSeconds: number;
  queue: { waiting: number; retrying: number; delivering: number; dead: number };
  totals: {
    attempts: number;
    succeeded: number;
    failed: number;
    successRate: number | null;
    deliveriesPerSecond: number;
    latencyMs: { p50: number | null; p95: number | null; p99: number | null };
  };
  series: StatsPoint[];
  errorClasses: { errorClass: string; count: number; share: number }[];
  statusCodes: { statusCode: number; count: number; share: number }[];
  worstEndpoints: {
    endpointId: string;
    appId: string;
    url: string;
    attempts: number;
    failed: number;
    successRate: number | null;
    lastErrorClass: string | null;
  }[];
}

export interface ApiKey {
  id: string;
  name: string;
  appId: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A background job: replay by filter, recover an endpoint, backfill an endpoint. */
export interface Job {
  id: string;
  appId: string;
  kind: 'replay' | 'recover' | 'backfill';
  params: Record<string, unknown>;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  total: number;
  processed: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}
