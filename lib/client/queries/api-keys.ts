import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import type { ApiKey, Page } from './types';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

export function apiKeysQuery() {
  return queryOptions({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => apiFetch<Page<ApiKey>>('/api/v1/api-keys', { signal, query: { limit: 250 } }),
  });
}

export const createApiKey = (body: { name: string; appId?: string }) =>
  apiFetch<{ apiKey: ApiKey; key: string }>('/api/v1/api-keys', { method: 'POST', body });

export const revokeApiKey = (keyId: string) =>
  apiFetch<void>(`/api/v1/api-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' });
