// What makes a list a payload search, without zod: the dashboard's and portal's pages import this,
// and a zod object schema in a browser bundle probes `new Function` at load, which the pages'
// Content-Security-Policy (no 'unsafe-eval') reports as a violation. The schemas are in
// ./schemas/payload-search.ts.

import { payloadValueJsonbProblem } from './payload-value-jsonb-problem';

export const PAYLOAD_MATCHES = ['equals', 'contains'] as const;
export type PayloadMatch = (typeof PAYLOAD_MATCHES)[number];

export interface PayloadSearchParams {
  search?: string;
  payloadPath?: string;
  payloadValue?: string;
  payloadMatch?: PayloadMatch;
}

/** Whether these parameters make the list a payload search. */
export const isPayloadSearch = (params: PayloadSearchParams) =>
  params.search !== undefined || params.payloadPath !== undefined;

/** What is missing from a payload search's parameters, by field: a path needs a value and a value a
 * path; a match needs both; a value to equal must be one PostgreSQL's jsonb takes. The list queries and
 * the replay filter check the same. */
export function payloadSearchProblems(params: PayloadSearchParams): { path: [string]; message: string }[] {
  const problems: { path: [string]; message: string }[] = [];
  if (params.payloadValue !== undefined && params.payloadPath === undefined) {
    problems.push({ path: ['payloadPath'], message: 'is required with payloadValue' });
  }
  if (params.payloadPath !== undefined && params.payloadValue === undefined) {
    problems.push({ path: ['payloadValue'], message: 'is required with payloadPath' });
  }
  if (params.payloadMatch !== undefined && params.payloadPath === undefined) {
    problems.push({ path: ['payloadMatch'], message: 'needs payloadPath and payloadValue' });
  }
  if (params.payloadValue !== undefined && (params.payloadMatch ?? 'equals') === 'equals') {
    const problem = payloadValueJsonbProblem(params.payloadValue);
    if (problem) problems.push({ path: ['payloadValue'], message: problem });
  }
  return problems;
}

/** The delivery list's filters that decide whether it walks: the keys no index serves, and the ones
 * that narrow it to a message or a delivery by key. */
export interface DeliveryWalkParams extends PayloadSearchParams {
  eventType?: unknown;
  statusCode?: unknown;
  errorClass?: unknown;
  attemptCount?: unknown;
  minAttempts?: unknown;
  id?: unknown;
  messageId?: unknown;
  idempotencyKey?: unknown;
}

/**
 * Whether a delivery list is answered a stretch of time at a time (searchedBackTo), as a search: a
 * payload search, or a filter no index serves (event type, status code, error class, attempts) that no
 * key (a delivery, message or idempotency key) narrows first. Read row by row down the app's history,
 * a filter that matches little read all of it in one statement: ~200 ms per million deliveries on
 * PostgreSQL 15, minutes at 100 M (lib/domain/deliveries/list-deliveries.ts).
 */
export const isDeliverySearch = (params: DeliveryWalkParams) =>
  isPayloadSearch(params) ||
  (!given(params.id) &&
    !given(params.messageId) &&
    !given(params.idempotencyKey) &&
    [params.eventType, params.statusCode, params.errorClass, params.attemptCount, params.minAttempts].some(given));

/** An empty value in a page's URL is no filter: the API client leaves it out of the request. */
const given = (value: unknown) => value !== undefined && value !== '';
