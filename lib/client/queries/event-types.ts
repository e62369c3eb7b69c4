import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import type { z } from 'zod';
import type { Page } from '../../contract/schemas/common';
import type { createEventTypeBody, EventType, updateEventTypeBody } from '../../contract/schemas/event-types';

export const eventTypeKeys = {
  all: ['event-types'] as const,
  forApp: (appId: string) => [...eventTypeKeys.all, appId] as const,
};

const base = (appId: string) => `/api/v1/apps/${encodeURIComponent(appId)}/event-types`;

// The event types page shows this many at a time, then "Load more" (a single page of 250 was all it
// showed, with nothing said about the rest).
export const EVENT_TYPES_PAGE_SIZE = 100;

/** The event types page: the app's catalog, a page at a time. */
export function eventTypePagesQuery(appId: string) {
  return infiniteQueryOptions({
    queryKey: [...eventTypeKeys.forApp(appId), 'pages'] as const,
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<EventType>>(base(appId), { signal, query: { limit: EVENT_TYPES_PAGE_SIZE, cursor: pageParam } }),
    ...cursorPages,
    enabled: Boolean(appId),
  });
}

/**
 * The app's live event types whose name contains `name` (every live one without it), a page at a
 * time: what can be subscribed to or sent, for an app with any number of them (the endpoint form, the
 * test-event dialog, the portal's reference), where a first page of 250 left the rest unreachable.
 */
export function liveEventTypePagesQuery(appId: string, name = '') {
  return infiniteQueryOptions({
    queryKey: [...eventTypeKeys.forApp(appId), 'live', name] as const,
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<EventType>>(base(appId), {
        signal,
        query: { limit: EVENT_TYPES_PAGE_SIZE, includeArchived: 'false', name, cursor: pageParam },
      }),
    ...cursorPages,
    enabled: Boolean(appId),
  });
}

/** The first 250 event types of the app whose name contains `name` (all without it), archived ones
 * too, for the list filters' pickers (old messages keep a type archived since). */
export function eventTypesQuery(appId: string, name = '') {
  return queryOptions({
    queryKey: [...eventTypeKeys.forApp(appId), 'picker', name] as const,
    queryFn: ({ signal }) => apiFetch<Page<EventType>>(base(appId), { signal, query: { limit: 250, name } }),
    enabled: Boolean(appId),
  });
}

export const createEventType = (appId: string, body: z.input<typeof createEventTypeBody>) =>
  apiFetch<EventType>(base(appId), { method: 'POST', body });

export const updateEventType = (appId: string, name: string, body: z.input<typeof updateEventTypeBody>) =>
  apiFetch<EventType>(`${base(appId)}/${encodeURIComponent(name)}`, { method: 'PATCH', body });

export const deleteEventType = (appId: string, name: string) =>
  apiFetch<void>(`${base(appId)}/${encodeURIComponent(name)}`, { method: 'DELETE' });
