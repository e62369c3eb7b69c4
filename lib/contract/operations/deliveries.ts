import { defineOperation } from '../operation';
import { pathId, replayResult } from '../schemas/common';
import { searchablePage } from '../schemas/payload-search';
import {
  delivery,
  deliveryDetail,
  listDeliveriesQuery,
  replayDeliveriesBody,
  replayDeliveriesResult,
} from '../schemas/deliveries';
import { appParams, readErrors, readOneErrors, writeErrors } from './common';

const deliveryParams = appParams.extend({ deliveryId: pathId });

export const deliveryOperations = {
  listDeliveries: defineOperation({
    operationId: 'listDeliveries',
    method: 'GET',
    path: '/apps/{appId}/deliveries',
    tag: 'Deliveries',
    summary: 'List deliveries, newest first',
    description:
      "With search or payloadPath, the deliveries whose message's payload matches, over any range, newest message " +
      'first (from and to then bound the message time): the search walks back through time for at most ' +
      'HOOKLINE_SEARCH_BUDGET_MS (default 1.5 s) and answers the matches found, searchedBackTo, and a nextCursor ' +
      'that goes on from there (null once the range is searched). A page may hold fewer than limit matches. ' +
      'eventType, errorClass, statusCode, attemptCount and minAttempts, which no index serves, walk back the same ' +
      'way unless id, messageId or idempotencyKey narrows the list first.',
    access: 'principal',
    params: appParams,
    query: listDeliveriesQuery,
    status: 200,
    response: searchablePage(delivery),
    errors: [...readErrors, 404],
  }),
  getDelivery: defineOperation({
    operationId: 'getDelivery',
    method: 'GET',
    path: '/apps/{appId}/deliveries/{deliveryId}',
    tag: 'Deliveries',
    summary: 'Get a delivery with its attempts and message',
    description:
      'A first attempt being sent now has no row until its outcome is written; it is shown as the row it ' +
      'will be: delivering, attemptCount 0, no attempts.',
    access: 'principal',
    params: deliveryParams,
    status: 200,
    response: deliveryDetail,
    errors: readOneErrors,
  }),
  replayDelivery: defineOperation({
    operationId: 'replayDelivery',
    method: 'POST',
    path: '/apps/{appId}/deliveries/{deliveryId}/replay',
    tag: 'Deliveries',
    summary: 'Send a delivery again (back to pending, due now)',
    access: 'principal',
    params: deliveryParams,
    status: 200,
    response: replayResult,
    errors: [...readOneErrors, 409],
  }),
  replayDeliveries: defineOperation({
    operationId: 'replayDeliveries',
    method: 'POST',
    path: '/apps/{appId}/deliveries/replay',
    tag: 'Deliveries',
    summary: 'Replay a selection of deliveries, or every delivery matching a filter (dryRun counts them)',
    description:
      'deliveryIds are replayed now ({replayed}); a filter starts a background job ({job}) whose total is ' +
      "the dry run's count.",
    access: 'principal',
    params: appParams,
    body: replayDeliveriesBody,
    status: 200,
    response: replayDeliveriesResult,
    errors: writeErrors,
  }),
  cancelDelivery: defineOperation({
    operationId: 'cancelDelivery',
    method: 'POST',
    path: '/apps/{appId}/deliveries/{deliveryId}/cancel',
    tag: 'Deliveries',
    summary: 'Cancel a pending or in-flight delivery',
    description:
      'A retry in flight is cancelled and its outcome not recorded. A first attempt in flight (attemptCount 0) ' +
      'answers 409 delivery_in_flight until its outcome is written.',
    access: 'principal',
    params: deliveryParams,
    status: 200,
    response: delivery,
    errors: [...readOneErrors, 409],
  }),
};
