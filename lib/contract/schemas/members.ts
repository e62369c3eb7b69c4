import { z } from 'zod';
import { timestamp, type ResponseBody } from './common';

export const role = z
  .enum(['owner', 'admin', 'developer', 'viewer'])
  .describe(
    'owner: members and settings, and everything an admin does; admin: everything operational; ' +
      'developer: apps, endpoints, event types, messages and replays within its apps; viewer: read only',
  );

const appIds = z.array(z.string().min(1).max(200)).max(100).describe('The apps the role is held to; empty: every app');

export const member = z.object({
  id: z.string(),
  email: z.string(),
  role,
  appIds: z.array(z.string()),
  totpEnabled: z.boolean().describe('Whether password sign-in also asks for an authenticator code'),
  createdAt: timestamp,
});
export type Member = ResponseBody<typeof member>;

export const invitation = z.object({
  id: z.string(),
  email: z.string(),
  role,
  appIds: z.array(z.string()),
  invitedBy: z.string().nullable().describe('The member who invited'),
  createdAt: timestamp,
  expiresAt: timestamp,
  state: z.enum(['pending', 'accepted', 'revoked', 'expired']),
});
export type Invitation = ResponseBody<typeof invitation>;

export const createdInvitation = z.object({
  invitation,
  url: z.string().describe('The link to send the new member; shown only in this response'),
});
export type CreatedInvitation = ResponseBody<typeof createdInvitation>;

export const createInvitationBody = z.strictObject({
  email: z.email().max(320),
  role,
  appIds: appIds.optional(),
});

export const updateMemberBody = z
  .strictObject({ role: role.optional(), appIds: appIds.optional() })
  .refine((body) => body.role !== undefined || body.appIds !== undefined, 'set role, appIds or both');

export const memberSession = z.object({
  id: z.string(),
  createdAt: timestamp,
  lastSeenAt: timestamp.describe('Updated at most once a minute'),
  expiresAt: timestamp.describe('The absolute end (HOOKLINE_SESSION_TTL_HOURS after sign-in)'),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean().describe('The session making this request'),
});
export type MemberSession = ResponseBody<typeof memberSession>;

export const revokedSessions = z.object({ revoked: z.number().int() });

export const memberList = z.object({ data: z.array(member) });
export const invitationList = z.object({ data: z.array(invitation) });
export const memberSessionList = z.object({ data: z.array(memberSession) });
