import { route } from '@/lib/http/route';
import { deleteEventType } from '@/lib/domain/event-types/delete-event-type';
import { getEventType } from '@/lib/domain/event-types/get-event-type';
import { updateEventType } from '@/lib/domain/event-types/update-event-type';
import { operations } from '@/lib/contract/operations';

export const runtime = 'nodejs';

export const GET = route(operations.getEventType, ({ params }) =>
  getEventType({ appId: params.appId, name: params.eventTypeName }),
);
export const PATCH = route(operations.updateEventType, ({ params, body }) =>
  updateEventType({ appId: params.appId, name: params.eventTypeName, changes: body }),
);
export const DELETE = route(operations.deleteEventType, ({ params }) =>
  deleteEventType({ appId: params.appId, name: params.eventTypeName }),
);
