import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import { LIVE_REFRESH_MS } from './refresh';
import type { z } from 'zod';
import type { App, createAppBody, updateAppBody } from '../../contract/schemas/apps';
import type { Page } from '../../contract/schemas/common';

export const appKeys = {
  all: ['apps'] as const,
  list: () => [...appKeys.all, 'list'] as const,
  detail: (appId: string) => [...appKeys.all, 'detail', appId] as const,
};

// The first 250 apps (the API's page-size ceiling) whose name or id contains `search` (every app
// without it), for pickers. A deployment with more apps (an app per customer) pages through all of them
// on /apps (appPagesQuery); a picker finds one beyond these by typing, and names a chosen one by its own
// read (components/filters/app-select.tsx).
export function appsQuery(search = '') {
  return queryOptions({
    queryKey: [...appKeys.list(), 'picker', search] as const,
    queryFn: ({ signal }) => apiFetch<Page<App>>('/api/v1/apps', { signal, query: { limit: 250, search } }),
    staleTime: 30_000,
  });
}

// The apps page shows this many at a time, then "Load more". A single page of 250 was all it showed,
// with nothing said about the rest.
export const APPS_PAGE_SIZE = 100;

/** The apps page: every app, a page at a time, each with its endpoints, 24 h success rate and queue. */
export function appPagesQuery() {
  return infiniteQueryOptions({
    queryKey: [...appKeys.list(), 'summary'] as const,
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<App>>('/api/v1/apps', {
        signal,
        query: { limit: APPS_PAGE_SIZE, summary: 'true', cursor: pageParam },
      }),
    ...cursorPages,
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
