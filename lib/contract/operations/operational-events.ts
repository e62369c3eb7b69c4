// Operational events (issue 14): the endpoints subscribed to them and the event log. Issues and alert
// rules, which operational events open and fire, have their own files.
import { z } from 'zod';
import { defineOperation } from '../operation';
import { page, pageQuery, pathId } from '../schemas/common';
import {
  createOperationalEndpointBody,
  listOperationalEventsQuery,
  operationalEndpoint,
  operationalEndpointWithSecret,
  operationalEvent,
  updateOperationalEndpointBody,
} from '../schemas/operations';
import { readErrors, readOneErrors, writeErrors } from './common';

const operationalEndpointParams = z.object({ endpointId: pathId });

export const operationalEventOperations = {
  listOperationalEndpoints: defineOperation({
    operationId: 'listOperationalEndpoints',
    method: 'GET',
    path: '/operational-endpoints',
    tag: 'Operational events',
    summary: 'List the endpoints that receive operational events',
    access: 'deployment',
    query: pageQuery,
    status: 200,
    response: page(operationalEndpoint),
    errors: readErrors,
  }),
  createOperationalEndpoint: defineOperation({
    operationId: 'createOperationalEndpoint',
    method: 'POST',
    path: '/operational-endpoints',
    tag: 'Operational events',
    summary:
      'Subscribe an endpoint to operational events, deployment-wide or for one app; the response holds its signing secret',
    description:
      'The endpoint belongs to the internal operations app (app_hookline_ops), so its secret can be rotated, ' +
      'a test event sent and its deliveries read through the /apps/app_hookline_ops/endpoints routes.',
    access: 'deployment',
    body: createOperationalEndpointBody,
    status: 201,
    response: operationalEndpointWithSecret,
    errors: writeErrors,
  }),
  getOperationalEndpoint: defineOperation({
    operationId: 'getOperationalEndpoint',
    method: 'GET',
    path: '/operational-endpoints/{endpointId}',
    tag: 'Operational events',
    summary: 'Get an operational endpoint',
    access: 'deployment',
    params: operationalEndpointParams,
    status: 200,
    response: operationalEndpoint,
    errors: readOneErrors,
  }),
  updateOperationalEndpoint: defineOperation({
    operationId: 'updateOperationalEndpoint',
    method: 'PATCH',
    path: '/operational-endpoints/{endpointId}',
    tag: 'Operational events',
    summary: 'Change an operational endpoint (URL, event types, scope, payload template)',
    access: 'deployment',
    params: operationalEndpointParams,
    body: updateOperationalEndpointBody,
    status: 200,
    response: operationalEndpoint,
    errors: writeErrors,
  }),
  deleteOperationalEndpoint: defineOperation({
    operationId: 'deleteOperationalEndpoint',
    method: 'DELETE',
    path: '/operational-endpoints/{endpointId}',
    tag: 'Operational events',
    summary: 'Delete an operational endpoint',
    access: 'deployment',
    params: operationalEndpointParams,
    status: 204,
    errors: readOneErrors,
  }),
  listOperationalEvents: defineOperation({
    operationId: 'listOperationalEvents',
    method: 'GET',
    path: '/operational-events',
    tag: 'Operational events',
    summary: 'The operational event log, newest first (an app-limited key sees its own app)',
    description:
      'audit.sensitive_change events (who made a sensitive change, from where and why) are listed only to ' +
      'a role that may read the audit log (operations.manage); others get the log without them.',
    access: 'principal',
    query: listOperationalEventsQuery,
    status: 200,
    response: page(operationalEvent),
    errors: readErrors,
  }),
};
