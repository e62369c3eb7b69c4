import type { z } from 'zod';
import { apiFetch } from '../api-client';
import type { CreatedPortalSession, createPortalSessionBody } from '../../contract/schemas/portal-sessions';

export const createPortalSession = (appId: string, body: z.input<typeof createPortalSessionBody>) =>
  apiFetch<CreatedPortalSession>(`/api/v1/apps/${encodeURIComponent(appId)}/portal-sessions`, { method: 'POST', body });
