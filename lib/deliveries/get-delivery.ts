import { getApiSettings } from '../api/api-settings';
import { getPrisma } from '../db';
import { notFound } from '../errors';
import { messageView } from '../messages/message-view';
import { attemptView, deliveryInclude, deliveryView } from './delivery-view';
import { explainWait } from './explain-wait';

export async function getDelivery({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const prisma = getPrisma();
  const row = await prisma.delivery.findFirst({
    where: { id: deliveryId, appId },
    include: {
      ...deliveryInclude,
      endpoint: {
        select: { url: true, enabled: true, disabledReason: true, circuitState: true, circuitOpenUntil: true },
      },
      message: true,
    },
  });
  if (!row) throw notFound('Delivery', deliveryId);
  const attempts = await prisma.attempt.findMany({
    where: { deliveryId, appId },
    orderBy: [{ attemptNumber: 'asc' }, { startedAt: 'asc' }],
  });
  const view = deliveryView(row);
  const wait = explainWait({
    state: view.state,
    attemptCount: row.attemptCount,
    nextAttemptAt: view.nextAttemptAt,
    endpoint: row.endpoint,
    maxAttempts: getApiSettings().retryScheduleMs.length,
  });
  return { ...view, wait, attempts: attempts.map(attemptView), message: messageView(row.message) };
}
