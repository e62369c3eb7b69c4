import { Prisma } from '../../generated/prisma/client';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import { expandStateFilter, type DeliveryState } from '../deliveries/delivery-states';

/** What a list can ask of a message's deliveries besides the keys an index finds. */
export interface DeliveryConditions {
  statusCode?: number;
  errorClass?: string;
  minAttempts?: number;
  attemptCount?: number;
  endpointId?: string;
  states?: readonly DeliveryState[];
}

/** A delivery list's filter as the conditions on one delivery (its keys and range are checked elsewhere). */
export function conditionsOfFilter(filter: DeliveryFilter): DeliveryConditions & { eventType?: string } {
  return {
    eventType: filter.eventType,
    statusCode: filter.statusCode,
    errorClass: filter.errorClass,
    minAttempts: filter.minAttempts,
    attemptCount: filter.attemptCount,
    endpointId: filter.endpointId,
    states: filter.state === undefined ? undefined : expandStateFilter(filter.state),
  };
}

/**
 * The event type as SQL on `m` (hookline.messages AS m), or null when none is asked for. No index
 * serves it (migration 20261201100000_messages_without_event_type_index: the producers paid for one on
 * every message, for this filter alone), so a list that asks walks: a common type fills a page from
 * the first slice. A delivery's event type is its message's (the fan-out copies it).
 */
export function eventTypeCondition(eventType: string | undefined): Prisma.Sql | null {
  return eventType === undefined ? null : Prisma.sql`m.event_type = ${eventType}`;
}

/**
 * The conditions on one delivery, as SQL on `d` (hookline.deliveries AS d): its event type, last status
 * code, error class, number of attempts, endpoint and state. Empty when none is asked for.
 */
export function deliveryConditionsSql(conditions: DeliveryConditions & { eventType?: string }): Prisma.Sql[] {
  const sql: Prisma.Sql[] = [];
  if (conditions.eventType !== undefined) sql.push(Prisma.sql`d.event_type = ${conditions.eventType}`);
  if (conditions.statusCode !== undefined) sql.push(Prisma.sql`d.last_status_code = ${conditions.statusCode}`);
  if (conditions.errorClass !== undefined) sql.push(Prisma.sql`d.last_error_class = ${conditions.errorClass}`);
  if (conditions.minAttempts !== undefined) sql.push(Prisma.sql`d.attempt_count >= ${conditions.minAttempts}`);
  if (conditions.attemptCount !== undefined) sql.push(Prisma.sql`d.attempt_count = ${conditions.attemptCount}`);
  if (conditions.endpointId !== undefined) sql.push(Prisma.sql`d.endpoint_id = ${conditions.endpointId}`);
  if (conditions.states !== undefined) sql.push(statesCondition(conditions.states));
  return sql;
}

/**
 * The conditions on a message's deliveries, as SQL on `m` (hookline.messages AS m), or null when there
 * are none: one of its deliveries meets them all (deliveryConditionsSql). Deliveries have no index on
 * message_id (migration 20261201090000_deliveries_by_message_through_id): each message's deliveries
 * are read in its range of deliveries_pkey, a few entries, but a message at a time, so a list with
 * such a condition walks back through time under the search budget (walk-back.ts) rather than check
 * every message of the app in one statement. OFFSET 0 keeps the EXISTS a loop over the slice's
 * messages: turned into a join, the planner priced each message's range (known only per row) at 0.5 %
 * of a partition and hashed all of its deliveries (1.7 s a page at bench:dashboard's 2.5 M, against
 * 32 ms for the index probes it replaced).
 */
export function deliveriesCondition(conditions: DeliveryConditions): Prisma.Sql | null {
  const sql = deliveryConditionsSql(conditions);
  if (sql.length === 0) return null;
  return Prisma.sql`EXISTS (SELECT 1 FROM hookline.deliveries AS d
                             WHERE d.message_id = m.id
                               AND d.id >= hookline.delivery_ids_from(m.id)
                               AND d.id < hookline.delivery_ids_before(m.id)
                               AND ${Prisma.join(sql, ' AND ')}
                            OFFSET 0)`;
}

/** The public states as SQL on `d`: waiting and retrying split the stored `pending` on attempt_count,
 * as deliveryStatesWhere (delivery-states.ts) does for Prisma. */
function statesCondition(states: readonly DeliveryState[]): Prisma.Sql {
  const each = [...new Set(states)].map((state) =>
    state === 'waiting'
      ? Prisma.sql`(d.state = 'pending' AND d.attempt_count = 0)`
      : state === 'retrying'
        ? Prisma.sql`(d.state = 'pending' AND d.attempt_count > 0)`
        : Prisma.sql`d.state = ${state}`,
  );
  return Prisma.sql`(${Prisma.join(each, ' OR ')})`;
}
