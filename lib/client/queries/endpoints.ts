import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import { LIVE_REFRESH_MS } from './refresh';
import type { z } from 'zod';
import type { Page } from '../../contract/schemas/common';
import type { ReplaySelectionResult } from '../../contract/schemas/deliveries';
import type {
  createEndpointBody,
  Endpoint,
  EndpointSecrets,
  EndpointWithSecret,
  RotatedSecret,
  updateEndpointBody,
} from '../../contract/schemas/endpoints';
import type { Message } from '../../contract/schemas/messages';

export const endpointKeys = {
  all: ['endpoints'] as const,
  forApp: (appId: string) => [...endpointKeys.all, appId] as const,
  list: (appId: string) => [...endpointKeys.forApp(appId), 'list'] as const,
  detail: (appId: string, endpointId: string) => [...endpointKeys.forApp(appId), 'detail', endpointId] as const,
  secret: (appId: string, endpointId: string) => [...endpointKeys.forApp(appId), 'secret', endpointId] as const,
  recoverCount: (appId: string, endpointId: string, since: string | null) =>
    [...endpointKeys.forApp(appId), 'recover-count', endpointId, since] as const,
};

const base = (appId: string) => `/api/v1/apps/${encodeURIComponent(appId)}/endpoints`;
const one = (appId: string, endpointId: string) => `${base(appId)}/${encodeURIComponent(endpointId)}`;

// The endpoints page shows this many at a time, then "Load more": every endpoint of an app with more
// than the API's largest page (250) is reachable, where a single page hid the rest without a word.
export const ENDPOINTS_PAGE_SIZE = 100;

/** The endpoints page: the app's endpoints a page at a time, newest first, each with its health. */
export function endpointPagesQuery(appId: string) {
  return infiniteQueryOptions({
    queryKey: [...endpointKeys.forApp(appId), 'pages'] as const,
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<Endpoint>>(base(appId), { signal, query: { limit: ENDPOINTS_PAGE_SIZE, cursor: pageParam } }),
    ...cursorPages,
    enabled: Boolean(appId),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** The first 250 endpoints of the app whose URL, description or id contains `search` (all without it),
 * for pickers (filters, jobs, getting started). */
export function endpointsQuery(appId: string, search = '') {
  return queryOptions({
    queryKey: [...endpointKeys.list(appId), 'picker', search] as const,
    queryFn: ({ signal }) => apiFetch<Page<Endpoint>>(base(appId), { signal, query: { limit: 250, search } }),
    enabled: Boolean(appId),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function endpointQuery(appId: string, endpointId: string) {
  return queryOptions({
    queryKey: endpointKeys.detail(appId, endpointId),
    queryFn: ({ signal }) => apiFetch<Endpoint>(one(appId, endpointId), { signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** Secrets are fetched only when the operator asks to see them, and never cached after. */
export function endpointSecretQuery(appId: string, endpointId: string) {
  return queryOptions({
    queryKey: endpointKeys.secret(appId, endpointId),
    queryFn: ({ signal }) => apiFetch<EndpointSecrets>(`${one(appId, endpointId)}/secret`, { signal }),
    gcTime: 0,
    staleTime: 0,
  });
}

/** The fields the endpoint form edits, as the API takes them in a change. */
export type EndpointInput = z.input<typeof updateEndpointBody>;

export const createEndpoint = (appId: string, body: z.input<typeof createEndpointBody>) =>
  apiFetch<EndpointWithSecret>(base(appId), { method: 'POST', body });

export const updateEndpoint = (appId: string, endpointId: string, body: EndpointInput) =>
  apiFetch<Endpoint>(one(appId, endpointId), { method: 'PATCH', body });

export const deleteEndpoint = (appId: string, endpointId: string) =>
  apiFetch<void>(one(appId, endpointId), { method: 'DELETE' });

export const enableEndpoint = (appId: string, endpointId: string) =>
  apiFetch<Endpoint>(`${one(appId, endpointId)}/enable`, { method: 'POST', body: {} });

export const disableEndpoint = (appId: string, endpointId: string, reason?: string) =>
  apiFetch<Endpoint>(`${one(appId, endpointId)}/disable`, { method: 'POST', body: reason ? { reason } : {} });

export const rotateEndpointSecret = (appId: string, endpointId: string, gracePeriodSeconds?: number) =>
  apiFetch<RotatedSecret>(`${one(appId, endpointId)}/rotate-secret`, {
    method: 'POST',
    body: gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds },
  });

export const sendTestEvent = (appId: string, endpointId: string, eventType?: string) =>
  apiFetch<Message>(`${one(appId, endpointId)}/test`, { method: 'POST', body: eventType ? { eventType } : {} });

/** Starts a background job replaying them (lib/client/queries/jobs.ts follows its progress). */
export const recoverEndpoint = (appId: string, endpointId: string, since: string) =>
  apiFetch<Extract<ReplaySelectionResult, { job: unknown }>>(`${one(appId, endpointId)}/recover`, {
    method: 'POST',
    body: { since },
  });

/** How many deliveries a recover from `since` would replay: a dry run, so nothing changes. */
export const recoverCountQuery = (appId: string, endpointId: string, since: string | null) =>
  queryOptions({
    queryKey: endpointKeys.recoverCount(appId, endpointId, since),
    queryFn: ({ signal }) =>
      apiFetch<Extract<ReplaySelectionResult, { matched: number }>>(`${one(appId, endpointId)}/recover`, {
        method: 'POST',
        signal,
        body: { since, dryRun: true },
      }),
    enabled: since !== null,
  });
