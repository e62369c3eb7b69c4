import { findPage } from '../cursor';
import { requireApp } from '../apps/require-app';
import { readPrisma } from '../../database/read-replica';
import { Prisma } from '../../generated/prisma/client';
import type { DeliveryFilter } from '../../contract/schemas/deliveries';
import type { PayloadSearchParams } from '../../contract/schemas/payload-search';
import { isDeliverySearch } from '../../contract/payload-search-params';
import { conditionsOfFilter, deliveriesCondition, eventTypeCondition } from '../search/delivery-conditions';
import { payloadCondition } from '../search/payload-condition';
import { deliveryInclude, deliveryViews, type DeliveryRow } from './delivery-view';
import { deliveryWhere } from './delivery-where';
import { searchDeliveries, walkDeliveries } from './search-deliveries';
import { listAppDeliveries, listable } from './list-app-deliveries';
import { expandStateFilter } from './delivery-states';
import {
  firstAttemptInFlight,
  firstAttemptsInFlight,
  firstAttemptsInFlightTo,
  inFlightMatches,
  withFirstAttemptsInFlight,
} from './first-attempts-in-flight';
import { messageIdForKey } from '../messages/message-id-for-key';

/** A filter naming one message (by id or idempotency key): its deliveries are its range of the primary key. */
const namesMessage = (filter: DeliveryFilter) => filter.messageId !== undefined || filter.idempotencyKey !== undefined;

/**
 * Newest first. A filter an index serves (an endpoint, a delivery, message or idempotency key) is one
 * query; the app's whole list, or a state of it, merges its endpoints' (listAppDeliveries). A payload search walks the app's messages back through time under
 * the search budget (searchDeliveries); a filter no index serves (event type, status code, error
 * class, attempts; isDeliverySearch) walks its deliveries the same way (walkDeliveries). Read in one
 * statement, such a filter that matched little read the app's whole history: 205 ms for an error
 * class no delivery had among 1 M (PostgreSQL 15, a parallel scan of both cores), so minutes at 100 M.
 */
export async function listDeliveries({
  appId,
  filter,
  search = {},
  limit,
  cursor,
}: {
  appId: string;
  filter: DeliveryFilter;
  search?: PayloadSearchParams;
  limit: number;
  cursor?: string;
}) {
  await requireApp(appId);
  // Checked whether or not the list walks: a payload value without its path is refused, not ignored.
  const payload = payloadCondition(search);
  if (payload) {
    // The payload search walks messages; the event type first (it spares the messages of other types
    // the payload's check), then the deliveries' own conditions.
    const conditions = [
      eventTypeCondition(filter.eventType),
      payload,
      deliveriesCondition(conditionsOfFilter(filter)),
    ].filter((c) => c !== null);
    return searchDeliveries({ appId, filter, condition: Prisma.join(conditions, ' AND '), limit, cursor });
  }
  if (isDeliverySearch(filter)) return walkDeliveries({ appId, filter, limit, cursor });
  const prisma = await readPrisma();
  if (filter.endpointId === undefined && filter.id === undefined && !namesMessage(filter)) {
    // The app's whole list, or one state of it: merged from its endpoints' (list-app-deliveries.ts),
    // except states no index holds apart (succeeded, delivering, cancelled), which walk back through time.
    const states = filter.state === undefined ? undefined : expandStateFilter(filter.state);
    if (!listable(states)) return walkDeliveries({ appId, filter, limit, cursor });
    const page = await listAppDeliveries(prisma, { appId, states, from: filter.from, to: filter.to, limit, cursor });
    return { data: await deliveryViews(prisma, page.data), nextCursor: page.nextCursor, searchedBackTo: null };
  }
  const where = await deliveryWhere(appId, filter, prisma);
  let page = await findPage({ where, cursor, limit, ids: 'dlv' }, (query) =>
    prisma.delivery.findMany({ ...query, include: deliveryInclude }),
  );
  // A message's or an endpoint's first attempts being sent now have no row yet (first-attempts-in-flight.ts).
  let inFlight: DeliveryRow[] = [];
  if (namesMessage(filter)) {
    const messageId =
      filter.idempotencyKey === undefined
        ? filter.messageId!
        : await messageIdForKey(appId, filter.idempotencyKey, filter.messageId);
    inFlight = await firstAttemptsInFlight(prisma, appId, [messageId]);
  } else if (filter.id !== undefined) {
    const one = await firstAttemptInFlight(prisma, appId, filter.id);
    inFlight = one ? [one] : [];
  } else if (filter.endpointId !== undefined) {
    inFlight = await firstAttemptsInFlightTo(prisma, appId, filter.endpointId);
  }
  page = withFirstAttemptsInFlight(
    page,
    inFlight.filter((row) => inFlightMatches(filter, row)),
    { cursor, limit },
  );
  return { data: await deliveryViews(prisma, page.data), nextCursor: page.nextCursor, searchedBackTo: null };
}
