import { defineOperation } from '../operation';
import { pathId, replayResult } from '../schemas/common';
import { searchablePage } from '../schemas/payload-search';
import { messageDetail } from '../schemas/deliveries';
import {
  createMessageBody,
  idempotencyKeyHeader,
  traceparentHeader,
  tracestateHeader,
  listMessagesQuery,
  message,
  messageWithOutcome,
} from '../schemas/messages';
import { appParams, readErrors, readOneErrors, writeErrors } from './common';

const messageParams = appParams.extend({ messageId: pathId });

export const messageOperations = {
  createMessage: defineOperation({
    operationId: 'createMessage',
    method: 'POST',
    path: '/apps/{appId}/messages',
    tag: 'Messages',
    summary: 'Send a message to every subscribed endpoint (the REST way in, through hookline.send)',
    description:
      'With an Idempotency-Key, repeating the request returns the first message and records nothing new; ' +
      'the same key with another event type or payload answers 409.',
    access: 'principal',
    params: appParams,
    body: createMessageBody,
    headers: [
      {
        name: 'Idempotency-Key',
        description: 'Makes retries safe: one message per key and app',
        schema: idempotencyKeyHeader,
      },
      {
        name: 'traceparent',
        description:
          "The producer's W3C trace context: kept with the message, and each delivery attempt's span (when the " +
          'worker traces, OTEL_EXPORTER_OTLP_ENDPOINT) links to it. A malformed one is ignored, not refused.',
        schema: traceparentHeader,
      },
      {
        name: 'tracestate',
        description: 'Vendor trace state that goes with traceparent; kept when 512 characters or fewer.',
        schema: tracestateHeader,
      },
    ],
    status: 202,
    response: message,
    errors: [...writeErrors, 409],
  }),
  listMessages: defineOperation({
    operationId: 'listMessages',
    method: 'GET',
    path: '/apps/{appId}/messages',
    tag: 'Messages',
    summary: 'List messages, newest first, each with its deliveries counted by state',
    description:
      'With search or payloadPath, a payload search over any range, and likewise with eventType, statusCode, ' +
      'errorClass or minAttempts (no index serves them): it walks back through time for at most ' +
      'HOOKLINE_SEARCH_BUDGET_MS (default 1.5 s) and answers the matches found, searchedBackTo, and a nextCursor ' +
      'that goes on from there (null once the range is searched). A page may hold fewer than limit matches.',
    access: 'principal',
    params: appParams,
    query: listMessagesQuery,
    status: 200,
    response: searchablePage(messageWithOutcome),
    errors: [...readErrors, 404],
  }),
  getMessage: defineOperation({
    operationId: 'getMessage',
    method: 'GET',
    path: '/apps/{appId}/messages/{messageId}',
    tag: 'Messages',
    summary: 'Get a message with its deliveries',
    access: 'principal',
    params: messageParams,
    status: 200,
    response: messageDetail,
    errors: readOneErrors,
  }),
  replayMessage: defineOperation({
    operationId: 'replayMessage',
    method: 'POST',
    path: '/apps/{appId}/messages/{messageId}/replay',
    tag: 'Messages',
    summary: 'Send a message again to all its endpoints',
    access: 'principal',
    params: messageParams,
    status: 200,
    response: replayResult,
    errors: readOneErrors,
  }),
};
