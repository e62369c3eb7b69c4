import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import type { z } from 'zod';
import type { Page } from '../../contract/schemas/common';
import type { createEventTypeBody, EventType, updateEventTypeBody } from '../../contract/schemas/event-types';

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

export const createEventType = (appId: string, body: z.input<typeof createEventTypeBody>) =>
  apiFetch<EventType>(base(appId), { method: 'POST', body });

export const updateEventType = (appId: string, name: string, body: z.input<typeof updateEventTypeBody>) =>
  apiFetch<EventType>(`${base(appId)}/${encodeURIComponent(name)}`, { method: 'PATCH', body });

export const deleteEventType = (appId: string, name: string) =>
  apiFetch<void>(`${base(appId)}/${encodeURIComponent(name)}`, { method: 'DELETE' });
