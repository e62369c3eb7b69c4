import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import type { EventType, Page } from './types';

export const eventTypeKeys = {
  all: ['event-types'] as const,
  forApp: (appId: string) => [...eventTypeKeys.all, appId] as const,
};

const base = (appId: string) => `/api/v1/apps/${encodeURIComponent(appId)}/event-types`;

export function eventTypesQuery(appId: string) {
  return queryOptions({
    queryKey: eventTypeKeys.forApp(appId),
    queryFn: ({ signal }) => apiFetch<Page<EventType>>(base(appId), { signal, query: { limit: 250 } }),
    enabled: Boolean(appId),
  });
}

export interface EventTypeInput {
  name?: string;
  description?: string | null;
  schema?: unknown;
  archived?: boolean;
}

export const createEventType = (appId: string, body: EventTypeInput & { name: string }) =>
  apiFetch<EventType>(base(appId), { method: 'POST', body });

export const updateEventType = (appId: string, name: string, body: EventTypeInput) =>
  apiFetch<EventType>(`${base(appId)}/${encodeURIComponent(name)}`, { method: 'PATCH', body });

export const deleteEventType = (appId: string, name: string) =>
  apiFetch<void>(`${base(appId)}/${encodeURIComponent(name)}`, { method: 'DELETE' });
