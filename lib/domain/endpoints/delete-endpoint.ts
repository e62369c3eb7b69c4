import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { endpointAuditFields } from './endpoint-audit-fields';
import { notFound } from '../errors';

/**
 * Deletes the endpoint with its secrets (foreign-key cascade) and its deliveries and their attempts
 * (explicitly: the hot tables carry no foreign keys, migration 20261123170000_write_path_v2). A
 * delivery a worker writes for it afterwards, from a fan-out that read the endpoint before this
 * commit, is deleted by that worker (worker/sql/delete-orphan-deliveries.sql).
 */
export async function deleteEndpoint({ appId, endpointId }: { appId: string; endpointId: string }): Promise<void> {
  const prisma = getPrisma();
  const count = await prisma.$transaction(async (tx) => {
    const before = await tx.endpoint.findFirst({ where: { id: endpointId, appId } });
    const { count } = await tx.endpoint.deleteMany({ where: { id: endpointId, appId } });
    if (count === 0 || !before) return 0;
    await recordAuditEvent(tx, {
      action: 'endpoint.deleted',
      resourceType: 'endpoint',
      resourceId: endpointId,
      appId,
      before: endpointAuditFields(before),
    });
    await tx.$executeRaw`DELETE FROM hookline.attempts AS a USING hookline.deliveries AS d
                          WHERE d.endpoint_id = ${endpointId} AND a.delivery_id = d.id`;
    await tx.$executeRaw`DELETE FROM hookline.deliveries WHERE endpoint_id = ${endpointId}`;
    return count;
  });
  if (count === 0) throw notFound('Endpoint', endpointId);
}
