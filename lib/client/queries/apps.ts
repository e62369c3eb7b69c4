import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { LIVE_REFRESH_MS } from './refresh';
import type { z } from 'zod';
import type { App, createAppBody, updateAppBody } from '../../contract/schemas/apps';
import type { Page } from '../../contract/schemas/common';

export const appKeys = {
  all: ['apps'] as const,
  list: () => [...appKeys.all, 'list'] as const,
  detail: (appId: string) => [...appKeys.all, 'detail', appId] as const,
};

// 250 is the API's page-size ceiling; a deployment with more apps than that pages through them on /apps.
export function appsQuery() {
  return queryOptions({
    queryKey: appKeys.list(),
    queryFn: ({ signal }) => apiFetch<Page<App>>('/api/v1/apps', { signal, query: { limit: 250 } }),
    staleTime: 30_000,
  });
}

/** The apps list's view: each app with its endpoints, 24 h success rate and queue, refreshed live. */
export function appsWithSummaryQuery() {
  return queryOptions({
    queryKey: [...appKeys.list(), 'summary'] as const,
    queryFn: ({ signal }) => apiFetch<Page<App>>('/api/v1/apps', { signal, query: { limit: 250, summary: 'true' } }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function appQuery(appId: string) {
  return queryOptions({
    queryKey: appKeys.detail(appId),
    queryFn: ({ signal }) => apiFetch<App>(`/api/v1/apps/${encodeURIComponent(appId)}`, { signal }),
  });
}

export const createApp = (body: z.input<typeof createAppBody>) =>
  apiFetch<App>('/api/v1/apps', { method: 'POST', body });

export const updateApp = (appId: string, body: z.input<typeof updateAppBody>) =>
  apiFetch<App>(`/api/v1/apps/${encodeURIComponent(appId)}`, { method: 'PATCH', body });

export const deleteApp = (appId: string) =>
  apiFetch<void>(`/api/v1/apps/${encodeURIComponent(appId)}`, { method: 'DELETE' });
