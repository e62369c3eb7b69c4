import { z } from 'zod';
import { timestamp, type ResponseBody } from './common';

// A portal link is meant to be created when the customer opens the operator's page, and to end soon
// after: 1 hour by default, 24 hours at most (a leaked link is then useful for a day at worst), 5
// minutes at least (time enough for a slow page to load the iframe).
export const PORTAL_SESSION_DEFAULT_SECONDS = 3600;
export const PORTAL_SESSION_MIN_SECONDS = 300;
export const PORTAL_SESSION_MAX_SECONDS = 86_400;

export const createPortalSessionBody = z.strictObject({
  expiresInSeconds: z
    .number()
    .int()
    .min(PORTAL_SESSION_MIN_SECONDS)
    .max(PORTAL_SESSION_MAX_SECONDS)
    .default(PORTAL_SESSION_DEFAULT_SECONDS)
    .describe('How long the link and the session it opens last, 300 to 86400 seconds (default 3600)'),
  readOnly: z
    .boolean()
    .default(false)
    .describe('The customer may look but change nothing (and does not see signing secrets)'),
});

export const portalSession = z.object({
  id: z.string(),
  appId: z.string(),
  readOnly: z.boolean(),
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: timestamp,
  expiresAt: timestamp,
  revokedAt: timestamp.nullable(),
});
export type PortalSession = ResponseBody<typeof portalSession>;

export const createdPortalSession = portalSession.extend({
  url: z
    .string()
    .describe('Open this (or put it in an iframe) to enter the portal; shown once, it holds the session token'),
});
export type CreatedPortalSession = ResponseBody<typeof createdPortalSession>;
