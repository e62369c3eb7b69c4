import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import type { App, Page } from './types';

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

export function appQuery(appId: string) {
  return queryOptions({
    queryKey: appKeys.detail(appId),
    queryFn: ({ signal }) => apiFetch<App>(`/api/v1/apps/${encodeURIComponent(appId)}`, { signal }),
  });
}

export const createApp = (body: { name: string }) => apiFetch<App>('/api/v1/apps', { method: 'POST', body });

export const updateApp = (appId: string, body: { name: string }) =>
  apiFetch<App>(`/api/v1/apps/${encodeURIComponent(appId)}`, { method: 'PATCH', body });

export const deleteApp = (appId: string) =>
  apiFetch<void>(`/api/v1/apps/${encodeURIComponent(appId)}`, { method: 'DELETE' });
