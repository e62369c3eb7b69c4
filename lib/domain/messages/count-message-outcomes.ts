import { getPrisma } from '../../database/db';
import { publicMessageId, storedIds } from '../../database/ids';
import { firstAttemptsInFlight } from '../deliveries/first-attempts-in-flight';

export interface MessageOutcome {
  deliveries: number;
  waiting: number;
  retrying: number;
  delivering: number;
  succeeded: number;
  dead: number;
  cancelled: number;
}

/** The deliveries of a page of messages counted by state (lib/domain/deliveries/delivery-states.ts): per
 * message, the few entries of deliveries_pkey in its range (prisma/functions/deliveries-of-message.sql),
 * one partition each. A message has one delivery per endpoint, so a page of 50 reads a few hundred
 * rows at most. Counted message by message (an aggregate in a LATERAL subquery stays a loop): the
 * planner prices a range known only per row at 0.5 % of a partition, and, joined as sets, chose to
 * hash a whole partition of deliveries instead (2.5 M rows, 655 ms p50 for the message list, bench
 * :dashboard) of ~50 probes. First attempts being sent now have no row yet and count as delivering
 * (lib/domain/deliveries/first-attempts-in-flight.ts). `messageIds` are public ids, and key the answer. */
export async function countMessageOutcomes(appId: string, messageIds: string[]): Promise<Map<string, MessageOutcome>> {
  const stored = storedIds('msg', messageIds);
  const rows = stored.length
    ? await getPrisma().$queryRaw<({ message_id: string } & MessageOutcome)[]>`
        SELECT m.id AS message_id, o.*
          FROM unnest(${stored}::uuid[]) AS m (id)
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS deliveries,
                  count(*) FILTER (WHERE d.state = 'pending' AND d.attempt_count = 0)::int AS waiting,
                  count(*) FILTER (WHERE d.state = 'pending' AND d.attempt_count > 0)::int AS retrying,
                  count(*) FILTER (WHERE d.state = 'delivering')::int AS delivering,
                  count(*) FILTER (WHERE d.state = 'succeeded')::int AS succeeded,
                  count(*) FILTER (WHERE d.state = 'dead')::int AS dead,
                  count(*) FILTER (WHERE d.state = 'cancelled')::int AS cancelled
             FROM hookline.deliveries AS d
            WHERE d.message_id = m.id
              AND d.id >= hookline.delivery_ids_from(m.id)
              AND d.id < hookline.delivery_ids_before(m.id)
              AND d.app_id = ${appId}
         ) AS o`
    : [];
  const none: MessageOutcome = {
    deliveries: 0,
    waiting: 0,
    retrying: 0,
    delivering: 0,
    succeeded: 0,
    dead: 0,
    cancelled: 0,
  };
  const outcomes = new Map<string, MessageOutcome>(messageIds.map((id) => [id, none]));
  for (const { message_id: messageId, ...outcome } of rows) outcomes.set(publicMessageId(messageId), outcome);
  for (const inFlight of await firstAttemptsInFlight(getPrisma(), appId, messageIds)) {
    const messageId = publicMessageId(inFlight.messageId);
    const outcome = outcomes.get(messageId)!;
    outcomes.set(messageId, {
      ...outcome,
      deliveries: outcome.deliveries + 1,
      delivering: outcome.delivering + 1,
    });
  }
  return outcomes;
}
