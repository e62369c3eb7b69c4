import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch, type QueryValue } from '../api-client';
import { LIVE_REFRESH_MS } from './refresh';
import { rangeToWindow, type TimeRange } from './time-range';
import type { DeliveryDetail, Delivery, DeliveryState, Page } from './types';

/** The explorer's filter, exactly as it appears in the page URL. */
export interface DeliveryFilter {
  appId: string;
  endpointId?: string;
  eventType?: string;
  state?: DeliveryState;
  errorClass?: string;
  statusCode?: string;
  range?: TimeRange;
  id?: string;
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
      apiFetch<Page<Delivery>>(base(filter.appId), {
        signal,
        query: { ...deliveryFilterToQuery(filter), limit: pageSize, cursor: pageParam },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: Boolean(filter.appId),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function deliveryQuery(appId: string, deliveryId: string) {
  return queryOptions({
    queryKey: deliveryKeys.detail(appId, deliveryId),
    queryFn: ({ signal }) =>
      apiFetch<DeliveryDetail>(`${base(appId)}/${encodeURIComponent(deliveryId)}`, { signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export const replayDelivery = (appId: string, deliveryId: string) =>
  apiFetch<{ replayed: number }>(`${base(appId)}/${encodeURIComponent(deliveryId)}/replay`, {
    method: 'POST',
    body: {},
  });

export const cancelDelivery = (appId: string, deliveryId: string) =>
  apiFetch<unknown>(`${base(appId)}/${encodeURIComponent(deliveryId)}/cancel`, { method: 'POST', body: {} });

export const replayDeliveries = (appId: string, deliveryIds: string[]) =>
  apiFetch<{ replayed: number }>(`${base(appId)}/replay`, { method: 'POST', body: { deliveryIds } });

/**
 * The API replays every delivery matching a filter, whatever its state. "Replay failed" must not
 * re-send what already succeeded, so without an explicit state it narrows to `dead` (failed for good;
 * a pending delivery that failed is already scheduled for a retry). An explicit state is the operator's choice.
 */
export function failedReplayFilter(filter: DeliveryFilter): DeliveryFilter {
  return filter.state ? filter : { ...filter, state: 'dead' };
}

function filterBody(filter: DeliveryFilter) {
  const query = deliveryFilterToQuery(failedReplayFilter(filter));
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));
}

export const countMatchingDeliveries = (filter: DeliveryFilter) =>
  apiFetch<{ matched: number }>(`${base(filter.appId)}/replay`, {
    method: 'POST',
    body: { filter: filterBody(filter), dryRun: true },
  });

export const replayMatchingDeliveries = (filter: DeliveryFilter) =>
  apiFetch<{ replayed: number }>(`${base(filter.appId)}/replay`, {
    method: 'POST',
    body: { filter: filterBody(filter) },
  });
