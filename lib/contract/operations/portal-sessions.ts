import { defineOperation } from '../operation';
import { page, pageQuery, pathId } from '../schemas/common';
import { createdPortalSession, createPortalSessionBody, portalSession } from '../schemas/portal-sessions';
import { appParams, readErrors, readOneErrors, writeErrors } from './common';

const portalSessionParams = appParams.extend({ sessionId: pathId });

export const portalSessionOperations = {
  createPortalSession: defineOperation({
    operationId: 'createPortalSession',
    method: 'POST',
    path: '/apps/{appId}/portal-sessions',
    tag: 'Customer portal',
    summary: "Create a link to the app's customer portal; the response holds its URL, once",
    description:
      'The URL opens a portal showing this app only: its endpoints, event types and deliveries. It works ' +
      'until expiresInSeconds have passed or the session is revoked. Embed it in an iframe on an origin ' +
      "listed in the app's portalFrameAncestors.",
    access: 'principal',
    params: appParams,
    body: createPortalSessionBody,
    status: 201,
    response: createdPortalSession,
    errors: writeErrors,
  }),
  listPortalSessions: defineOperation({
    operationId: 'listPortalSessions',
    method: 'GET',
    path: '/apps/{appId}/portal-sessions',
    tag: 'Customer portal',
    summary: "List the app's portal sessions, newest first (never their tokens)",
    access: 'principal',
    params: appParams,
    query: pageQuery,
    status: 200,
    response: page(portalSession),
    errors: [...readErrors, 404],
  }),
  revokePortalSession: defineOperation({
    operationId: 'revokePortalSession',
    method: 'DELETE',
    path: '/apps/{appId}/portal-sessions/{sessionId}',
    tag: 'Customer portal',
    summary: 'Revoke a portal session (effective immediately)',
    access: 'principal',
    params: portalSessionParams,
    status: 200,
    response: portalSession,
    errors: readOneErrors,
  }),
};
