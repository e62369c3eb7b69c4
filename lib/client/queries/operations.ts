// TanStack Query factories for operational events: issues, operational endpoints and alert rules.
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import { LIVE_REFRESH_MS } from './refresh';
import type { z } from 'zod';
import type { Page } from '../../contract/schemas/common';
import type {
  AlertRule,
  createAlertRuleBody,
  createOperationalEndpointBody,
  Issue,
  IssueCounts,
  IssueDetail,
  listIssuesQuery,
  OperationalEndpoint,
  OperationalEndpointWithSecret,
} from '../../contract/schemas/operations';

export { OPERATIONAL_EVENT_TYPES } from '../../domain/operational-events/operational-event-types';

/** The issues page's filter: a status the API filters by, or everything. */
export type IssueFilter = NonNullable<z.input<typeof listIssuesQuery>['status']> | 'all';

export const issueKeys = {
  all: ['issues'] as const,
  list: (filter: IssueFilter) => [...issueKeys.all, 'list', filter] as const,
  counts: () => [...issueKeys.all, 'counts'] as const,
  detail: (issueId: string) => [...issueKeys.all, 'detail', issueId] as const,
};

// The issues page shows this many at a time, then "Load more": it read one page of 250 and said
// nothing of the rest (an issue per endpoint and error class runs past that with many endpoints).
export const ISSUES_PAGE_SIZE = 100;

/** The issues page: most recently seen first, a page at a time, refreshed live. */
export function issuePagesQuery(filter: IssueFilter) {
  return infiniteQueryOptions({
    queryKey: issueKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<Issue>>('/api/v1/issues', {
        signal,
        query: { limit: ISSUES_PAGE_SIZE, status: filter === 'all' ? undefined : filter, cursor: pageParam },
      }),
    ...cursorPages,
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function issueCountsQuery() {
  return queryOptions({
    queryKey: issueKeys.counts(),
    queryFn: ({ signal }) => apiFetch<IssueCounts>('/api/v1/issues/counts', { signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function issueQuery(issueId: string) {
  return queryOptions({
    queryKey: issueKeys.detail(issueId),
    queryFn: ({ signal }) => apiFetch<IssueDetail>(`/api/v1/issues/${encodeURIComponent(issueId)}`, { signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export const setIssueStatus = (issueId: string, action: 'acknowledge' | 'resolve' | 'reopen') =>
  apiFetch<Issue>(`/api/v1/issues/${encodeURIComponent(issueId)}/${action}`, { method: 'POST', body: {} });

/** Mutes the issue's notifications for `minutes`; null unmutes it now. */
export const muteIssue = (issueId: string, minutes: number | null) =>
  apiFetch<Issue>(`/api/v1/issues/${encodeURIComponent(issueId)}/${minutes === null ? 'unmute' : 'mute'}`, {
    method: 'POST',
    body: minutes === null ? {} : { minutes },
  });

export const operationalEndpointKeys = {
  all: ['operational-endpoints'] as const,
  list: () => [...operationalEndpointKeys.all, 'list'] as const,
};

export function operationalEndpointsQuery() {
  return queryOptions({
    queryKey: operationalEndpointKeys.list(),
    queryFn: ({ signal }) =>
      apiFetch<Page<OperationalEndpoint>>('/api/v1/operational-endpoints', { signal, query: { limit: 250 } }),
  });
}

export const createOperationalEndpoint = (body: z.input<typeof createOperationalEndpointBody>) =>
  apiFetch<OperationalEndpointWithSecret>('/api/v1/operational-endpoints', { method: 'POST', body });

export const deleteOperationalEndpoint = (endpointId: string) =>
  apiFetch<void>(`/api/v1/operational-endpoints/${encodeURIComponent(endpointId)}`, { method: 'DELETE' });

export const alertRuleKeys = {
  all: ['alert-rules'] as const,
  list: (appId: string) => [...alertRuleKeys.all, appId] as const,
};

export function alertRulesQuery(appId: string) {
  return queryOptions({
    queryKey: alertRuleKeys.list(appId),
    queryFn: ({ signal }) =>
      apiFetch<Page<AlertRule>>(`/api/v1/apps/${encodeURIComponent(appId)}/alert-rules`, {
        signal,
        query: { limit: 250 },
      }),
    enabled: appId !== '',
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export const createAlertRule = (appId: string, body: z.input<typeof createAlertRuleBody>) =>
  apiFetch<AlertRule>(`/api/v1/apps/${encodeURIComponent(appId)}/alert-rules`, { method: 'POST', body });

export const deleteAlertRule = (appId: string, ruleId: string) =>
  apiFetch<void>(`/api/v1/apps/${encodeURIComponent(appId)}/alert-rules/${encodeURIComponent(ruleId)}`, {
    method: 'DELETE',
  });
