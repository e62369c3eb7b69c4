import { route } from '@/lib/api/route';
import { createEventType } from '@/lib/event-types/create-event-type';
import { listEventTypes } from '@/lib/event-types/list-event-types';
import { operations } from '@/lib/openapi/operations';

export const runtime = 'nodejs';

export const GET = route(operations.listEventTypes, ({ params, query }) =>
  listEventTypes({ ...params, ...query, includeArchived: query.includeArchived !== 'false' }));
export const POST = route(operations.createEventType, ({ params, body }) => createEventType({ ...params, ...body }));
