import { getPrisma } from '../../database/db';
import { publicDeliveryId } from '../../database/ids';
import { notFound } from '../errors';
import { appScopeWhere, type AppScope } from '../apps/app-scope';
import { issueView } from './issue-view';
import { operationalEventView } from './operational-event-view';

/** The issue with its affected deliveries and events; its app must be in the caller's scope. */
export async function getIssue({ issueId, ...scope }: AppScope & { issueId: string }) {
  const prisma = getPrisma();
  const row = await prisma.issue.findFirst({ where: { id: issueId, ...appScopeWhere(scope) } });
  if (!row) throw notFound('Issue', issueId);
  const [endpoint, deliveries, events] = await Promise.all([
    row.endpointId ? prisma.endpoint.findUnique({ where: { id: row.endpointId }, select: { url: true } }) : null,
    prisma.issueDelivery.findMany({
      where: { issueId },
      orderBy: [{ detectedAt: 'desc' }, { deliveryId: 'desc' }],
      take: 100,
      select: { deliveryId: true },
    }),
    prisma.operationalEvent.findMany({
      where: { issueId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 50,
    }),
  ]);
  return {
    ...issueView(row, endpoint?.url ?? null),
    deliveryIds: deliveries.map((delivery) => publicDeliveryId(delivery.deliveryId)),
    events: events.map(operationalEventView),
  };
}
