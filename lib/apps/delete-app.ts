import { getPrisma } from '../db';
import { notFound } from '../errors';

/**
 * Deletes the app and everything it owns. Event types, endpoints, secrets and keys go by foreign-key
 * cascade; messages, deliveries and attempts carry no foreign keys (a producer's insert must not lock
 * the app row: migration 20261123170000_write_path_v2), so they are deleted here, in one transaction.
 */
export async function deleteApp({ appId }: { appId: string }): Promise<void> {
  const prisma = getPrisma();
  const count = await prisma.$transaction(async (tx) => {
    // The app row first: from here on hookline.send refuses this app, so no message can slip in
    // between the deletes below and leave an orphan.
    const { count } = await tx.app.deleteMany({ where: { id: appId } });
    if (count === 0) return 0;
    await tx.$executeRaw`DELETE FROM hookline.attempts WHERE app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.deliveries WHERE app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.fanout_queue AS q USING hookline.messages AS m
                          WHERE m.id = q.message_id AND m.app_id = ${appId}`;
    await tx.$executeRaw`DELETE FROM hookline.messages WHERE app_id = ${appId}`;
    return count;
  });
  if (count === 0) throw notFound('App', appId);
}
