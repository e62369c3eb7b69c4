import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import type { z } from 'zod';
import type { ApiKey, CreatedApiKey, createApiKeyBody } from '../../contract/schemas/api-keys';
import type { Page } from '../../contract/schemas/common';

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

export const createApiKey = (body: z.input<typeof createApiKeyBody>) =>
  apiFetch<CreatedApiKey>('/api/v1/api-keys', { method: 'POST', body });

export const revokeApiKey = (keyId: string) =>
  apiFetch<void>(`/api/v1/api-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' });
