import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { endpointAuditFields } from './endpoint-audit-fields';
import { notFound } from '../errors';
import { endpointViewOf } from './endpoint-view';

/** New messages stop fanning out to a disabled endpoint (hookline.send skips it). */
export async function disableEndpoint({
  appId,
  endpointId,
  reason,
}: {
  appId: string;
  endpointId: string;
  reason?: string;
}) {
  const updated = await getPrisma().$transaction(async (tx) => {
    const before = await tx.endpoint.findFirst({ where: { id: endpointId, appId } });
    if (!before) return null;
    const after = await tx.endpoint.update({
      where: { id: endpointId },
      data: {
        enabled: false,
        disabledReason: reason ?? 'Disabled by an operator',
        disabledAt: new Date(),
        updatedAt: new Date(),
      },
    });
    await recordAuditEvent(tx, {
      action: 'endpoint.disabled',
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
