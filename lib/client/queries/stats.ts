import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { LIVE_REFRESH_MS } from './refresh';
import { rangeToWindow, type TimeRange } from './time-range';
import type { Stats } from '../../contract/schemas/stats';

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
