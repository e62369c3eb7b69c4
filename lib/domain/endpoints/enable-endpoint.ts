import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { endpointAuditFields } from './endpoint-audit-fields';
import { notFound } from '../errors';
import { endpointViewOf } from './endpoint-view';

/** Re-enables the endpoint with a closed circuit and no failure streak: an operator turning it back on
 * wants it tried now, not auto-disabled again by the streak that disabled it. */
export async function enableEndpoint({ appId, endpointId }: { appId: string; endpointId: string }) {
  const updated = await getPrisma().$transaction(async (tx) => {
    const before = await tx.endpoint.findFirst({ where: { id: endpointId, appId } });
    if (!before) return null;
    const after = await tx.endpoint.update({
      where: { id: endpointId },
      data: {
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        consecutiveFailures: 0,
        circuitState: 'closed',
        circuitOpenUntil: null,
        circuitBackoffMs: null,
        failingSince: null,
        updatedAt: new Date(),
      },
    });
    await recordAuditEvent(tx, {
      action: 'endpoint.enabled',
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
