import { getPrisma, type PrismaClient } from '../../database/db';
import { storedIds } from '../../database/ids';
import type { Prisma } from '../../generated/prisma/client';

/**
 * The deliveries of these messages (their public ids), as a Prisma condition: each message's id with
 * the range of delivery ids its deliveries lie in (prisma/functions/deliveries-of-message.sql).
 * Deliveries have no index on message_id (migration 20261201090000_deliveries_by_message_through_id);
 * with the range, a message's deliveries are a few entries of deliveries_pkey in one partition. The
 * ranges come from the database, the one place that knows where its legacy partition ends. No
 * messages, or ids that are no message's (lib/database/ids.ts): matches nothing.
 */
export async function deliveriesOfMessages(
  messageIds: string[],
  db: Pick<PrismaClient, '$queryRaw'> = getPrisma(),
): Promise<Prisma.DeliveryWhereInput> {
  const stored = storedIds('msg', messageIds);
  if (stored.length === 0) return { id: { in: [] } };
  const ranges = await db.$queryRaw<{ message_id: string; from: string; before: string }[]>`
    SELECT m.id AS message_id, hookline.delivery_ids_from(m.id) AS "from",
           hookline.delivery_ids_before(m.id) AS before
      FROM unnest(${stored}::uuid[]) AS m (id)`;
  return { OR: ranges.map((range) => ({ messageId: range.message_id, id: { gte: range.from, lt: range.before } })) };
}
