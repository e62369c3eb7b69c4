import type { DeliveryFilter } from '../schemas/deliveries';
import type { Prisma } from '../generated/prisma/client';

/** The Prisma condition of a delivery filter (list query and replay-by-filter share it). */
export function deliveryWhere(appId: string, filter: DeliveryFilter): Prisma.DeliveryWhereInput {
  return {
    appId,
    id: filter.id,
    endpointId: filter.endpointId,
    eventType: filter.eventType,
    state: filter.state,
    lastErrorClass: filter.errorClass,
    lastStatusCode: filter.statusCode,
    createdAt: { gte: filter.from, lt: filter.to },
  };
}
