import { apiFetch } from '../api-client';

export interface CreatedPortalSession {
  id: string;
  appId: string;
  readOnly: boolean;
  status: 'active' | 'expired' | 'revoked';
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  url: string;
}

export const createPortalSession = (appId: string, body: { expiresInSeconds?: number; readOnly?: boolean }) =>
  apiFetch<CreatedPortalSession>(`/api/v1/apps/${encodeURIComponent(appId)}/portal-sessions`, { method: 'POST', body });
