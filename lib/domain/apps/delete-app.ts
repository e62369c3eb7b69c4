import { getPrisma } from '../../database/db';
import { recordAuditEvent } from '../audit/record-audit-event';
import { appView } from './app-view';
import { DomainError, notFound } from '../errors';
import { OPERATIONS_APP_ID } from '../operational-events/operations-app';

/**
 * Deletes the app and everything it owns. Event types, endpoints, secrets and keys go by foreign-key
 * cascade; messages, deliveries and attempts carry no foreign keys (a producer's insert must not lock
 * the app row: migration 20261123170000_write_path_v2), so they are deleted here, in one transaction.
 */
export async function deleteApp({ appId }: { appId: string }): Promise<void> {
  // Its event types are the operational event types; without them nothing could be reported.
  if (appId === OPERATIONS_APP_ID) {
    throw new DomainError('operations_app', 'The operations app holds the operational endpoints and cannot be deleted');
  }
  const prisma = getPrisma();
  const count = await prisma.$transaction(async (tx) => {
    // The app row first: from here on hookline.send refuses this app, so no message can slip in
    // between the deletes below and leave an orphan.
    const before = await tx.app.findUnique({ where: { id: appId } });
    // Read before the cascade takes them: the app's deliveries are found by endpoint (no index leads
    // with app_id and nothing else: migration 20261205090000_deliveries_without_app_time_index).
    const endpointIds = (await tx.endpoint.findMany({ where: { appId }, select: { id: true } })).map((e) => e.id);
    const { count } = await tx.app.deleteMany({ where: { id: appId } });
    if (count === 0 || !before) return 0;
    await recordAuditEvent(tx, {
      action: 'app.deleted',
      resourceType: 'app',
      resourceId: appId,
      appId,
      before: appView(before),
    });
    await tx.$executeRaw`DELETE FROM hookline.attempts WHERE app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.deliveries WHERE app_id = ${appId} AND endpoint_id = ANY(${endpointIds}::text[])`;
    // The fan-out keeps no row per message (migration 20261130090000_fanout_by_transaction): a message
    // of this app it has not reached yet goes here, and one it reads meanwhile finds no endpoint.
    await tx.$executeRaw`DELETE FROM hookline.messages WHERE app_id = ${appId}`;
    // Operational events about it (migration 20261124130000). Subscriptions scoped to it stay: without
    // their scope they would become deployment-wide; scoped to no app they receive nothing.
    await tx.$executeRaw`DELETE FROM hookline.issue_deliveries WHERE app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.issues WHERE app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.operational_events WHERE app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.alert_rules WHERE app_id = ${appId}`;
    return count;
  });
  if (count === 0) throw notFound('App', appId);
}
