import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch, type QueryValue } from '../api-client';
import { cursorPages } from './cursor-pages';
import { LIVE_REFRESH_MS } from './refresh';
import { rangeToWindow, type TimeRange } from './time-range';
import type { ReplayResult } from '../../contract/schemas/common';
import type { SearchablePage } from '../../contract/schemas/payload-search';
import { isDeliverySearch, type PayloadMatch } from '../../contract/payload-search-params';
import type { Delivery, DeliveryDetail, ReplaySelectionResult } from '../../contract/schemas/deliveries';
import type { DeliveryStateFilter } from '../../domain/deliveries/delivery-states';

/** The explorer's filter, exactly as it appears in the page URL. */
export interface DeliveryFilter {
  appId: string;
  endpointId?: string;
  eventType?: string;
  state?: DeliveryStateFilter;
  errorClass?: string;
  statusCode?: string;
  minAttempts?: string;
  messageId?: string;
  idempotencyKey?: string;
  range?: TimeRange;
  id?: string;
  /** A payload search: narrows the list, and a replay by filter to what the list shows. */
  search?: string;
  payloadPath?: string;
  payloadValue?: string;
  payloadMatch?: PayloadMatch;
}

export const deliveryKeys = {
  all: ['deliveries'] as const,
  forApp: (appId: string) => [...deliveryKeys.all, appId] as const,
  list: (filter: DeliveryFilter) => [...deliveryKeys.forApp(filter.appId), 'list', filter] as const,
  detail: (appId: string, deliveryId: string) => [...deliveryKeys.forApp(appId), 'detail', deliveryId] as const,
};

/** The API's list query keys for a filter; the time range becomes from/to at the moment of the call. */
export function deliveryFilterToQuery(filter: DeliveryFilter): Record<string, QueryValue> {
  const window = filter.range ? rangeToWindow(filter.range) : undefined;
  return {
    endpointId: filter.endpointId,
    eventType: filter.eventType,
    state: filter.state,
    errorClass: filter.errorClass,
    statusCode: filter.statusCode,
    minAttempts: filter.minAttempts,
    messageId: filter.messageId,
    idempotencyKey: filter.idempotencyKey,
    id: filter.id,
    from: window?.from,
    to: window?.to,
  };
}

const base = (appId: string) => `/api/v1/apps/${encodeURIComponent(appId)}/deliveries`;

export function deliveriesQuery(filter: DeliveryFilter, pageSize = 50) {
  return infiniteQueryOptions({
    queryKey: deliveryKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<SearchablePage<Delivery>>(base(filter.appId), {
        signal,
        query: {
          ...deliveryFilterToQuery(filter),
          search: filter.search,
          payloadPath: filter.payloadPath,
          payloadValue: filter.payloadValue,
          payloadMatch: filter.payloadMatch,
          limit: pageSize,
          cursor: pageParam,
        },
      }),
    ...cursorPages,
    enabled: Boolean(filter.appId),
    // A live refresh would run every page's search again: a search refreshes when asked to.
    refetchInterval: isDeliverySearch(filter) ? false : LIVE_REFRESH_MS,
  });
}

export function deliveryQuery(appId: string, deliveryId: string) {
  return queryOptions({
    queryKey: deliveryKeys.detail(appId, deliveryId),
    queryFn: ({ signal }) => apiFetch<DeliveryDetail>(`${base(appId)}/${encodeURIComponent(deliveryId)}`, { signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export const replayDelivery = (appId: string, deliveryId: string) =>
  apiFetch<ReplayResult>(`${base(appId)}/${encodeURIComponent(deliveryId)}/replay`, {
    method: 'POST',
    body: {},
  });

export const cancelDelivery = (appId: string, deliveryId: string) =>
  apiFetch<Delivery>(`${base(appId)}/${encodeURIComponent(deliveryId)}/cancel`, { method: 'POST', body: {} });

// What POST .../deliveries/replay answers depends on what it was sent: deliveryIds, a dry run or a filter.
type ReplayedNow = Extract<ReplaySelectionResult, { replayed: number }>;
type MatchedCount = Extract<ReplaySelectionResult, { matched: number }>;
type ReplayJob = Extract<ReplaySelectionResult, { job: unknown }>;

export const replayDeliveries = (appId: string, deliveryIds: string[]) =>
  apiFetch<ReplayedNow>(`${base(appId)}/replay`, { method: 'POST', body: { deliveryIds } });

/** The set a replay by filter acts on: the filter's state, or without one `failed` (retrying or
 * dead), which is what the API does too and what an endpoint's recover replays. */
export function replayFilter(filter: DeliveryFilter): DeliveryFilter & { state: DeliveryStateFilter } {
  return { ...filter, state: filter.state ?? 'failed' };
}

function filterBody(filter: DeliveryFilter) {
  const query = {
    ...deliveryFilterToQuery(replayFilter(filter)),
    search: filter.search,
    payloadPath: filter.payloadPath,
    payloadValue: filter.payloadValue,
    payloadMatch: filter.payloadMatch,
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));
}

export const countMatchingDeliveries = (filter: DeliveryFilter) =>
  apiFetch<MatchedCount>(`${base(filter.appId)}/replay`, {
    method: 'POST',
    body: { filter: filterBody(filter), dryRun: true },
  });

/** Starts a background job replaying them (lib/client/queries/jobs.ts follows its progress). */
export const replayMatchingDeliveries = (filter: DeliveryFilter) =>
  apiFetch<ReplayJob>(`${base(filter.appId)}/replay`, {
    method: 'POST',
    body: { filter: filterBody(filter) },
  });
