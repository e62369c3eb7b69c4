// TanStack Query factory for the audit log page (GET /api/v1/audit-events).
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import { LIVE_REFRESH_MS } from './refresh';
import type { Page } from '../../contract/schemas/common';
import type { AuditEvent } from '../../contract/schemas/audit-events';

export interface AuditEventFilter {
  appId?: string;
  action?: string;
  resourceType?: string;
  resourceId?: string;
  actorId?: string;
}

export const auditEventKeys = {
  all: ['audit-events'] as const,
  list: (filter: AuditEventFilter) => [...auditEventKeys.all, 'list', filter] as const,
};

export function auditEventsQuery(filter: AuditEventFilter) {
  return infiniteQueryOptions({
    queryKey: auditEventKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<AuditEvent>>('/api/v1/audit-events', {
        signal,
        query: { ...filter, limit: 50, cursor: pageParam },
      }),
    ...cursorPages,
    refetchInterval: LIVE_REFRESH_MS,
  });
}
