import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import type { z } from 'zod';
import type { ApiKey, CreatedApiKey, createApiKeyBody } from '../../contract/schemas/api-keys';
import type { Page } from '../../contract/schemas/common';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

// The API keys page shows this many at a time, then "Load more": a deployment that gives each customer
// an app-limited key has more than the one page of 250 the page used to show, with nothing said of the rest.
export const API_KEYS_PAGE_SIZE = 100;

export function apiKeyPagesQuery() {
  return infiniteQueryOptions({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<Page<ApiKey>>('/api/v1/api-keys', { signal, query: { limit: API_KEYS_PAGE_SIZE, cursor: pageParam } }),
    ...cursorPages,
  });
}

export const createApiKey = (body: z.input<typeof createApiKeyBody>) =>
  apiFetch<CreatedApiKey>('/api/v1/api-keys', { method: 'POST', body });

export const revokeApiKey = (keyId: string) =>
  apiFetch<void>(`/api/v1/api-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' });
