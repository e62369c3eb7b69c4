import { getPrisma } from '../../database/db';

export interface MessageOutcome {
  deliveries: number;
  waiting: number;
  retrying: number;
  delivering: number;
  succeeded: number;
  dead: number;
  cancelled: number;
}

/** The deliveries of a page of messages counted by state (lib/domain/deliveries/delivery-states.ts), in one
 * read of deliveries_message_id_idx: a message has one delivery per endpoint, so a page of 50 reads a
 * few hundred rows at most. */
export async function countMessageOutcomes(appId: string, messageIds: string[]): Promise<Map<string, MessageOutcome>> {
  const rows = messageIds.length
    ? await getPrisma().$queryRaw<({ message_id: string } & MessageOutcome)[]>`
        SELECT message_id,
               count(*)::int AS deliveries,
               count(*) FILTER (WHERE state = 'pending' AND attempt_count = 0)::int AS waiting,
               count(*) FILTER (WHERE state = 'pending' AND attempt_count > 0)::int AS retrying,
               count(*) FILTER (WHERE state = 'delivering')::int AS delivering,
               count(*) FILTER (WHERE state = 'succeeded')::int AS succeeded,
               count(*) FILTER (WHERE state = 'dead')::int AS dead,
               count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled
          FROM hookline.deliveries
         WHERE message_id = ANY(${messageIds}) AND app_id = ${appId}
         GROUP BY message_id`
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
  for (const { message_id: messageId, ...outcome } of rows) outcomes.set(messageId, outcome);
  return outcomes;
}
