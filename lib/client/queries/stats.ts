import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { LIVE_REFRESH_MS } from './refresh';
import { rangeToWindow, type TimeRange } from './time-range';
import type { EndpointStats, Stats } from '../../contract/schemas/stats';

export interface StatsFilter {
  range: TimeRange;
  appId?: string;
  endpointId?: string;
}

export const statsKeys = {
  all: ['stats'] as const,
  filtered: (filter: StatsFilter) => [...statsKeys.all, filter] as const,
};

export function statsQuery(filter: StatsFilter, options: { live?: boolean } = {}) {
  return queryOptions({
    queryKey: statsKeys.filtered(filter),
    queryFn: ({ signal }) =>
      apiFetch<Stats>('/api/v1/stats', {
        signal,
        query: { appId: filter.appId, endpointId: filter.endpointId, ...rangeToWindow(filter.range) },
      }),
    refetchInterval: options.live === false ? false : LIVE_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

export const endpointStatsKeys = {
  all: [...statsKeys.all, 'endpoint'] as const,
  filtered: (appId: string, endpointId: string, range: TimeRange) =>
    [...endpointStatsKeys.all, appId, endpointId, range] as const,
};

/** One endpoint's success rate and latency over `range` (GET …/endpoints/{endpointId}/stats): what the
 * endpoint's page shows to the operator and, through the portal's API, to the customer. */
export function endpointStatsQuery(appId: string, endpointId: string, range: TimeRange) {
  return queryOptions({
    queryKey: endpointStatsKeys.filtered(appId, endpointId, range),
    queryFn: ({ signal }) =>
      apiFetch<EndpointStats>(
        `/api/v1/apps/${encodeURIComponent(appId)}/endpoints/${encodeURIComponent(endpointId)}/stats`,
        { signal, query: rangeToWindow(range) },
      ),
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}
