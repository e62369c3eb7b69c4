import { route } from '@/lib/http/route';
import { createEventType } from '@/lib/domain/event-types/create-event-type';
import { listEventTypes } from '@/lib/domain/event-types/list-event-types';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listEventTypes, ({ params, query }) =>
  listEventTypes({ ...params, ...query, includeArchived: query.includeArchived !== 'false' }),
);
export const POST = route(operations.createEventType, ({ params, body }) => createEventType({ ...params, ...body }));
