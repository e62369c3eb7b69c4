import { requireApp } from '../apps/require-app';
import { encryptSecret } from '../../runtime/secret-box';
import { recordAuditEvent } from '../audit/record-audit-event';
import { endpointAuditFields } from './endpoint-audit-fields';
import { getPrisma } from '../../database/db';
import { generateSecret } from '../webhooks/sign';
import { checkEndpointHeaders, checkEndpointUrl } from './check-endpoint-target';
import { checkEventTypesExist } from './check-event-types-exist';
import { endpointViewOf } from './endpoint-view';

export interface CreateEndpointInput {
  appId: string;
  url: string;
  description?: string;
  eventTypes?: string[];
  maxConcurrency?: number;
  rateLimitPerSecond?: number | null;
  headers?: Record<string, string>;
  secret?: string;
  /** Milliseconds before each attempt; null or omitted: the app's default. */
  retrySchedule?: number[] | null;
  timeoutMs?: number | null;
}

/** Creates the endpoint and its first signing secret together; the secret is returned this once. */
export async function createEndpoint(input: CreateEndpointInput) {
  // An unknown app is not_found whatever the body holds, as for every other operation below /apps/{appId}.
  await requireApp(input.appId);
  const url = checkEndpointUrl(input.url);
  const headers = checkEndpointHeaders(input.headers ?? {});
  const eventTypes = await checkEventTypesExist(input.appId, input.eventTypes ?? []);
  const secret = input.secret ?? generateSecret();
  const prisma = getPrisma();
  const endpoint = await prisma.$transaction(async (tx) => {
    const created = await tx.endpoint.create({
      data: {
        appId: input.appId,
        url,
        description: input.description ?? '',
        eventTypes,
        maxConcurrency: input.maxConcurrency ?? 10,
        rateLimitPerSecond: input.rateLimitPerSecond ?? null,
        headers,
        retryScheduleMs: input.retrySchedule ?? [],
        timeoutMs: input.timeoutMs ?? null,
      },
    });
    await tx.endpointSecret.create({
      data: { appId: input.appId, endpointId: created.id, secret: encryptSecret(secret) },
    });
    await recordAuditEvent(tx, {
      action: 'endpoint.created',
      resourceType: 'endpoint',
      resourceId: created.id,
      appId: input.appId,
      after: endpointAuditFields(created),
    });
    return created;
  });
  return { ...(await endpointViewOf(endpoint)), secret };
}
