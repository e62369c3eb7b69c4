import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { endpointAuditFields } from './endpoint-audit-fields';
import { notFound } from '../errors';
import { checkEndpointHeaders, checkEndpointUrl } from './check-endpoint-target';
import { checkEventTypesExist } from './check-event-types-exist';
import { endpointViewOf } from './endpoint-view';
import { findEndpoint } from './find-endpoint';

export interface EndpointChanges {
  url?: string;
  description?: string;
  eventTypes?: string[];
  maxConcurrency?: number;
  rateLimitPerSecond?: number | null;
  headers?: Record<string, string>;
  /** Milliseconds before each attempt; null: back to the app's default. */
  retrySchedule?: number[] | null;
  timeoutMs?: number | null;
}

export async function updateEndpoint({
  appId,
  endpointId,
  changes,
}: {
  appId: string;
  endpointId: string;
  changes: EndpointChanges;
}) {
  await findEndpoint(appId, endpointId);
  const url = changes.url === undefined ? undefined : checkEndpointUrl(changes.url);
  const headers = changes.headers === undefined ? undefined : checkEndpointHeaders(changes.headers);
  const eventTypes =
    changes.eventTypes === undefined ? undefined : await checkEventTypesExist(appId, changes.eventTypes);
  const prisma = getPrisma();
  const updated = await prisma.$transaction(async (tx) => {
    const before = await tx.endpoint.findFirst({ where: { id: endpointId, appId } });
    if (!before) return null;
    const after = await tx.endpoint.update({
      where: { id: endpointId },
      data: {
        url,
        description: changes.description,
        eventTypes,
        maxConcurrency: changes.maxConcurrency,
        rateLimitPerSecond: changes.rateLimitPerSecond,
        headers,
        // Workers see a new policy within their endpoint cache's 2 s (worker/endpoint-cache.ts).
        retryScheduleMs: changes.retrySchedule === undefined ? undefined : (changes.retrySchedule ?? []),
        timeoutMs: changes.timeoutMs,
        updatedAt: new Date(),
      },
    });
    await recordAuditEvent(tx, {
      action: 'endpoint.updated',
      resourceType: 'endpoint',
      resourceId: endpointId,
      appId,
      before: endpointAuditFields(before),
      after: endpointAuditFields(after),
    });
    return after;
  });
  if (!updated) throw notFound('Endpoint', endpointId);
  return endpointViewOf(updated);
}
