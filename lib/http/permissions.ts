// The one table of what each operation and page needs, beside the error-code table (error-status.ts).
// lib/domain/auth/roles.ts says which roles hold each permission; here every operation of /api/v1 and of
// /api/auth names the permission it needs, typed by the operations, so an operation added without a
// row here does not compile. route() checks it on every request (authorize), the dashboard's pages
// with pagePermission, and test/api/roles.test.ts walks the OpenAPI document for every role.
//
//   'public'  no credentials (sign-in, the OpenAPI document, accepting an invitation)
//   'self'    any signed-in member, on its own account (sessions, second factor); not an API key
import type { authOperations } from '../contract/auth-operations';
import type { AnyOperation } from '../contract/operation';
import { operations } from '../contract/operations';
import type { Principal } from '../domain/auth/principal';
import { roleHas, type Permission, type Role } from '../domain/auth/roles';
import { HttpError } from './http-error';

type OperationId = keyof typeof operations | keyof typeof authOperations;
export type Requirement = Permission | 'public' | 'self';

export const OPERATION_PERMISSION = {
  // Apps
  listApps: 'read',
  getApp: 'read',
  createApp: 'apps.manage',
  deleteApp: 'apps.manage',
  updateApp: 'integrations.write',
  // Event types
  listEventTypes: 'read',
  getEventType: 'read',
  createEventType: 'integrations.write',
  updateEventType: 'integrations.write',
  deleteEventType: 'integrations.write',
  // Endpoints. The signing secret is not a read: whoever holds it can forge webhooks receivers trust.
  listEndpoints: 'read',
  getEndpoint: 'read',
  getEndpointStats: 'read',
  listAuditEvents: 'operations.manage',
  createEndpoint: 'integrations.write',
  updateEndpoint: 'integrations.write',
  deleteEndpoint: 'integrations.write',
  enableEndpoint: 'integrations.write',
  disableEndpoint: 'integrations.write',
  getEndpointSecrets: 'integrations.write',
  rotateEndpointSecret: 'integrations.write',
  sendTestMessage: 'integrations.write',
  recoverEndpoint: 'deliveries.replay',
  backfillEndpoint: 'deliveries.replay',
  // Messages and deliveries
  listMessages: 'read',
  getMessage: 'read',
  createMessage: 'integrations.write',
  replayMessage: 'deliveries.replay',
  listDeliveries: 'read',
  getDelivery: 'read',
  replayDelivery: 'deliveries.replay',
  replayDeliveries: 'deliveries.replay',
  cancelDelivery: 'deliveries.replay',
  listJobs: 'read',
  getJob: 'read',
  createJob: 'deliveries.replay',
  cancelJob: 'deliveries.replay',
  // Customer portal links hand an app's endpoints to its customer.
  listPortalSessions: 'read',
  createPortalSession: 'integrations.write',
  revokePortalSession: 'integrations.write',
  getStats: 'read',
  // Running the deployment
  listApiKeys: 'read',
  createApiKey: 'operations.manage',
  revokeApiKey: 'operations.manage',
  listOperationalEndpoints: 'operations.manage',
  getOperationalEndpoint: 'operations.manage',
  createOperationalEndpoint: 'operations.manage',
  updateOperationalEndpoint: 'operations.manage',
  deleteOperationalEndpoint: 'operations.manage',
  listOperationalEvents: 'read',
  listIssues: 'read',
  countIssues: 'read',
  getIssue: 'read',
  acknowledgeIssue: 'operations.manage',
  resolveIssue: 'operations.manage',
  reopenIssue: 'operations.manage',
  muteIssue: 'operations.manage',
  unmuteIssue: 'operations.manage',
  listAlertRules: 'read',
  createAlertRule: 'operations.manage',
  updateAlertRule: 'operations.manage',
  deleteAlertRule: 'operations.manage',
  getOpenApiDocument: 'public',
  // Members
  listMembers: 'members.manage',
  updateMember: 'members.manage',
  removeMember: 'members.manage',
  listMemberSessions: 'members.manage',
  revokeMemberSessions: 'members.manage',
  listInvitations: 'members.manage',
  createInvitation: 'members.manage',
  revokeInvitation: 'members.manage',
  // The dashboard's own (/api/auth)
  signIn: 'public',
  startSsoSignIn: 'public',
  finishSsoSignIn: 'public',
  signOut: 'public',
  getSession: 'public',
  acceptInvitation: 'public',
  listMySessions: 'self',
  revokeMySession: 'self',
  signOutEverywhere: 'self',
  startTotpEnrolment: 'self',
  confirmTotp: 'self',
  disableTotp: 'self',
} as const satisfies Record<OperationId, Requirement>;

// API keys are operational credentials: a key acts with the admin role (everything operational, not
// members), and an app-limited key additionally only within its app.
const API_KEY_ROLE: Role = 'admin';

/** The role a principal acts with; a portal session has none (lib/http/portal decides for it). */
export function roleOf(principal: Principal): Role | null {
  if (principal.kind === 'admin') return principal.role;
  if (principal.kind === 'api_key') return API_KEY_ROLE;
  return null;
}

export function requirementOf(operation: AnyOperation): Requirement {
  const requirement = (OPERATION_PERMISSION as Record<string, Requirement>)[operation.operationId];
  // Unreachable while the table is typed by the operations; refusing beats allowing if it ever is.
  return requirement ?? 'members.manage';
}

/** Throws 403 forbidden, naming the role and the permission, when the principal may not call the operation. */
export function assertMayCall(operation: AnyOperation, principal: Principal): void {
  const requirement = requirementOf(operation);
  if (requirement === 'public' || principal.kind === 'portal') return;
  if (requirement === 'self') {
    if (principal.kind !== 'admin') {
      throw new HttpError('forbidden', `${operation.operationId} is for a signed-in member, not an API key`);
    }
    return;
  }
  assertHas(principal, requirement, operation.operationId);
}

/** Whether the principal's role holds the permission; a portal session holds none. */
export function holds(principal: Principal, permission: Permission): boolean {
  const role = roleOf(principal);
  return role !== null && roleHas(role, permission);
}

// The operations app (app_hookline_ops) holds the operator's own subscriptions: its endpoints' URLs and
// headers are credentials (a Slack or PagerDuty webhook URL is one), and its messages carry what the
// operational events say, audit.sensitive_change included. Through the /apps/{appId} routes it is only
// for whoever may manage operational endpoints, to look after them the way the dashboard's endpoint
// page does (secret, test event, enable, edit, replay, their deliveries). These change what the
// operational routes keep consistent, so nobody calls them on it:
//   createEndpoint     without the scope row /operational-endpoints writes, the endpoint would
//                      receive every app's events (hookline.emit_operational_event)
//   *EventType         its event types are the operational ones; emitting a type it lacks raises, so
//                      deleting audit.sensitive_change made creating a deployment-wide API key fail
//   createMessage      an operational message sent by hand is a fake alert
//   createPortalSession  it is never a customer's app
const NOT_ON_OPERATIONS_APP = new Set<string>([
  'createEndpoint',
  'createEventType',
  'updateEventType',
  'deleteEventType',
  'createMessage',
  'createPortalSession',
] satisfies OperationId[]);

/** Throws 403 forbidden when the principal may not call the operation on the operations app's routes. */
export function assertMayCallOnOperationsApp(operation: AnyOperation, principal: Principal): void {
  if (principal.kind === 'portal') {
    throw new HttpError('forbidden', 'The operations app has no customer portal');
  }
  assertHas(principal, 'operations.manage', `${operation.operationId} on the operations app`);
  if (NOT_ON_OPERATIONS_APP.has(operation.operationId)) {
    throw new HttpError(
      'forbidden',
      `${operation.operationId} is not allowed on the operations app: its endpoints are managed with /operational-endpoints, its event types and messages are Hookline's own`,
    );
  }
}

export function assertHas(principal: Principal, permission: Permission, what: string): void {
  const role = roleOf(principal);
  if (role === null || roleHas(role, permission)) return;
  throw new HttpError(
    'forbidden',
    `The ${role} role may not ${what}: it needs the "${permission}" permission (held by ${holders(permission)})`,
  );
}

function holders(permission: Permission): string {
  return (['owner', 'admin', 'developer', 'viewer'] as const).filter((role) => roleHas(role, permission)).join(', ');
}

/** A signed-in member as the dashboard's server knows it: its role, and the apps it is held to (none: all). */
export interface PageMember {
  role: Role;
  appIds: readonly string[];
}

/**
 * Why a member may not call an operation, as route() would refuse it: its role lacks the permission
 * (403 forbidden), or the operation concerns the whole deployment and the member is held to some apps
 * (403 key_not_allowed). null: it may.
 */
export type Refusal = { permission: Permission } | { heldToApps: true };

export function refusalOf(member: PageMember, operationId: keyof typeof operations): Refusal | null {
  const requirement = OPERATION_PERMISSION[operationId];
  if (requirement !== 'public' && !roleHas(member.role, requirement)) {
    return { permission: requirement };
  }
  if (operations[operationId].access === 'deployment' && member.appIds.length > 0) return { heldToApps: true };
  return null;
}

/**
 * The dashboard's pages not every member may open, each with the operation it exists for: a member
 * that operation refuses (refusalOf) is refused the page by its server (lib/http/auth/page-permission.ts)
 * and does not see it in the menu (app/(dashboard)/layout.tsx). Operations is there for its alert rules
 * (per app: a member held to apps keeps them); its operational endpoints card, deployment-wide, is shown
 * only to members who may list them.
 */
export const PAGE_OPERATION = {
  '/api-keys': 'listApiKeys',
  '/operations': 'createAlertRule',
  '/audit': 'listAuditEvents',
  '/members': 'listMembers',
} as const satisfies Record<string, keyof typeof operations>;

export type RestrictedPage = keyof typeof PAGE_OPERATION;

export function pageRefusal(member: PageMember, page: RestrictedPage): Refusal | null {
  return refusalOf(member, PAGE_OPERATION[page]);
}

/** The restricted pages a member may not open, for the menu to leave out. */
export function refusedPages(member: PageMember): RestrictedPage[] {
  return (Object.keys(PAGE_OPERATION) as RestrictedPage[]).filter((page) => pageRefusal(member, page) !== null);
}
