// The response schemas the OpenAPI document names as components. A generated client gets a named
// type for each (Delivery, Attempt, Stats, ...) instead of an anonymous inline object per operation.
// Only output schemas are named: a request body's schema differs from the response's (defaults,
// coercions), and naming one shape for both would describe one of them wrongly.
import { z } from 'zod';
import { apiKey, createdApiKey } from '../schemas/api-keys';
import { auditEvent } from '../schemas/audit-events';
import { app, appSummary } from '../schemas/apps';
import { errorBody, replayResult } from '../schemas/common';
import {
  attempt,
  delivery,
  deliveryDetail,
  deliveryRequest,
  deliveryWait,
  messageDetail,
  replayDeliveriesResult,
} from '../schemas/deliveries';
import {
  endpoint,
  endpointHealth,
  endpointSecrets,
  endpointWithSecret,
  rotateSecretResult,
} from '../schemas/endpoints';
import { eventType } from '../schemas/event-types';
import { message, messageOutcome, messageWithOutcome } from '../schemas/messages';
import { backfillEndpointResult, job } from '../schemas/jobs';
import {
  alertRule,
  issue,
  issueCounts,
  issueDetail,
  OPERATIONAL_EVENT_TYPES,
  operationalEndpoint,
  operationalEndpointWithSecret,
  operationalEvent,
  operationalEventEnvelopes,
  operationalEventSchemaName,
} from '../schemas/operations';
import {
  createdInvitation,
  invitation,
  invitationList,
  member,
  memberList,
  memberSession,
  memberSessionList,
  revokedSessions,
} from '../schemas/members';
import { createdPortalSession, portalSession } from '../schemas/portal-sessions';
import { endpointStats, stats } from '../schemas/stats';

export const namedSchemas = z.registry<{ id: string }>();

const NAMES: [z.ZodType, string][] = [
  [errorBody, 'Error'],
  [app, 'App'],
  [appSummary, 'AppSummary'],
  [eventType, 'EventType'],
  [endpoint, 'Endpoint'],
  [endpointHealth, 'EndpointHealth'],
  [endpointWithSecret, 'EndpointWithSecret'],
  [endpointSecrets, 'EndpointSecrets'],
  [rotateSecretResult, 'RotatedSecret'],
  [message, 'Message'],
  [messageOutcome, 'MessageOutcome'],
  [messageWithOutcome, 'MessageWithOutcome'],
  [messageDetail, 'MessageDetail'],
  [delivery, 'Delivery'],
  [deliveryDetail, 'DeliveryDetail'],
  [deliveryWait, 'DeliveryWait'],
  [deliveryRequest, 'DeliveryRequest'],
  [attempt, 'Attempt'],
  [replayResult, 'ReplayResult'],
  [replayDeliveriesResult, 'ReplaySelectionResult'],
  [job, 'Job'],
  [backfillEndpointResult, 'BackfillResult'],
  [stats, 'Stats'],
  [endpointStats, 'EndpointStats'],
  [apiKey, 'ApiKey'],
  [createdApiKey, 'CreatedApiKey'],
  [member, 'Member'],
  [invitation, 'Invitation'],
  [createdInvitation, 'CreatedInvitation'],
  [memberSession, 'MemberSession'],
  [memberList, 'MemberList'],
  [invitationList, 'InvitationList'],
  [memberSessionList, 'MemberSessionList'],
  [revokedSessions, 'RevokedSessions'],
  [operationalEndpoint, 'OperationalEndpoint'],
  [operationalEndpointWithSecret, 'OperationalEndpointWithSecret'],
  [operationalEvent, 'OperationalEventRecord'],
  [issue, 'Issue'],
  [issueDetail, 'IssueDetail'],
  [issueCounts, 'IssueCounts'],
  [alertRule, 'AlertRule'],
  // The bodies operational endpoints receive (the document's `webhooks`), e.g. EndpointFailingEvent.
  ...OPERATIONAL_EVENT_TYPES.map((type): [z.ZodType, string] => [
    operationalEventEnvelopes[type],
    operationalEventSchemaName(type),
  ]),
  [portalSession, 'PortalSession'],
  [createdPortalSession, 'CreatedPortalSession'],
  [auditEvent, 'AuditEvent'],
];
for (const [schema, id] of NAMES) namedSchemas.add(schema, { id });

/** A list response (`{data: [X], nextCursor}`) whose item is named X is named XPage. */
export function nameListResponse(schema: z.ZodType): void {
  if (namedSchemas.has(schema)) return;
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  const data = shape?.data as unknown as { element?: z.ZodType } | undefined;
  const item = data?.element ? namedSchemas.get(data.element)?.id : undefined;
  if (item && shape?.nextCursor) namedSchemas.add(schema, { id: `${item}Page` });
}
