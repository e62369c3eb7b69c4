import { defineOperation } from '../operation';
import { page, pageQuery, pathId } from '../schemas/common';
import { createEventTypeBody, eventType, listEventTypesQuery, updateEventTypeBody } from '../schemas/event-types';
import { appParams, readErrors, readOneErrors, writeErrors } from './common';

const eventTypeParams = appParams.extend({ eventTypeName: pathId });

export const eventTypeOperations = {
  listEventTypes: defineOperation({
    operationId: 'listEventTypes',
    method: 'GET',
    path: '/apps/{appId}/event-types',
    tag: 'Event types',
    summary: 'List event types',
    access: 'principal',
    params: appParams,
    query: pageQuery.extend(listEventTypesQuery.shape),
    status: 200,
    response: page(eventType),
    errors: [...readErrors, 404],
  }),
  createEventType: defineOperation({
    operationId: 'createEventType',
    method: 'POST',
    path: '/apps/{appId}/event-types',
    tag: 'Event types',
    summary: 'Create an event type',
    access: 'principal',
    params: appParams,
    body: createEventTypeBody,
    status: 201,
    response: eventType,
    errors: [...writeErrors, 409],
  }),
  getEventType: defineOperation({
    operationId: 'getEventType',
    method: 'GET',
    path: '/apps/{appId}/event-types/{eventTypeName}',
    tag: 'Event types',
    summary: 'Get an event type by name',
    access: 'principal',
    params: eventTypeParams,
    status: 200,
    response: eventType,
    errors: readOneErrors,
  }),
  updateEventType: defineOperation({
    operationId: 'updateEventType',
    method: 'PATCH',
    path: '/apps/{appId}/event-types/{eventTypeName}',
    tag: 'Event types',
    summary: 'Change the description, schema or archived flag of an event type',
    access: 'principal',
    params: eventTypeParams,
    body: updateEventTypeBody,
    status: 200,
    response: eventType,
    errors: writeErrors,
  }),
  deleteEventType: defineOperation({
    operationId: 'deleteEventType',
    method: 'DELETE',
    path: '/apps/{appId}/event-types/{eventTypeName}',
    tag: 'Event types',
    summary: 'Delete an event type (recorded messages keep its name)',
    access: 'principal',
    params: eventTypeParams,
    status: 204,
    errors: readOneErrors,
  }),
};
