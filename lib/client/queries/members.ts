import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../api-client';
import type {
  CreatedInvitation,
  createInvitationBody,
  Invitation,
  Member,
  MemberSession,
} from '../../contract/schemas/members';
import type { Role } from '../../domain/auth/roles';

export const memberKeys = {
  all: ['members'] as const,
  list: () => [...memberKeys.all, 'list'] as const,
  invitations: () => [...memberKeys.all, 'invitations'] as const,
  mySessions: () => ['my-sessions'] as const,
};

export function membersQuery() {
  return queryOptions({
    queryKey: memberKeys.list(),
    queryFn: ({ signal }) => apiFetch<{ data: Member[] }>('/api/v1/members', { signal }),
  });
}

export function invitationsQuery() {
  return queryOptions({
    queryKey: memberKeys.invitations(),
    queryFn: ({ signal }) => apiFetch<{ data: Invitation[] }>('/api/v1/invitations', { signal }),
  });
}

export function mySessionsQuery() {
  return queryOptions({
    queryKey: memberKeys.mySessions(),
    queryFn: ({ signal }) => apiFetch<{ data: MemberSession[] }>('/api/auth/sessions', { signal }),
  });
}

export const createInvitation = (body: z.input<typeof createInvitationBody>) =>
  apiFetch<CreatedInvitation>('/api/v1/invitations', { method: 'POST', body });

export const revokeInvitation = (invitationId: string) =>
  apiFetch<Invitation>(`/api/v1/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' });

export const updateMember = (memberId: string, body: { role?: Role; appIds?: string[] }) =>
  apiFetch<Member>(`/api/v1/members/${encodeURIComponent(memberId)}`, { method: 'PATCH', body });

export const removeMember = (memberId: string) =>
  apiFetch<Member>(`/api/v1/members/${encodeURIComponent(memberId)}`, { method: 'DELETE' });

export const revokeMySession = (sessionId: string) =>
  apiFetch<{ revoked: number }>(`/api/auth/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE' });

export const signOutEverywhere = () => apiFetch<void>('/api/auth/sign-out-everywhere', { method: 'POST', body: {} });

export const startTotpEnrolment = () =>
  apiFetch<{ secret: string; uri: string }>('/api/auth/totp', { method: 'POST', body: {} });

export const confirmTotp = (code: string) =>
  apiFetch<{ totpEnabled: true }>('/api/auth/totp/confirm', { method: 'POST', body: { code } });

export const disableTotp = (code: string) =>
  apiFetch<{ totpEnabled: false }>('/api/auth/totp/disable', { method: 'POST', body: { code } });

export const acceptInvitation = (token: string, password: string) =>
  apiFetch<void>('/api/auth/invitations/accept', { method: 'POST', body: { token, password } });
