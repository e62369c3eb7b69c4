import type { OperationalEvent } from '../../generated/prisma/client';

/** An operational event as the API shows it: in a list, and among an issue's recent events. */
export function operationalEventView(event: OperationalEvent) {
  return {
    id: event.id,
    appId: event.appId,
    type: event.type,
    endpointId: event.endpointId,
    issueId: event.issueId,
    data: event.data as Record<string, unknown>,
    createdAt: event.createdAt,
  };
}
