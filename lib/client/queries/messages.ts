import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { cursorPages } from './cursor-pages';
import { LIVE_REFRESH_MS } from './refresh';
import { rangeToWindow, type TimeRange } from './time-range';
import type { z } from 'zod';
import type { ReplayResult } from '../../contract/schemas/common';
import type { SearchablePage } from '../../contract/schemas/payload-search';
import { isPayloadSearch, type PayloadMatch } from '../../contract/payload-search-params';
import type { MessageDetail } from '../../contract/schemas/deliveries';
import type { createMessageBody, Message, MessageWithOutcome } from '../../contract/schemas/messages';

export interface MessageFilter {
  appId: string;
  eventType?: string;
  range?: TimeRange;
  id?: string;
  idempotencyKey?: string;
  statusCode?: string;
  errorClass?: string;
  minAttempts?: string;
  search?: string;
  payloadPath?: string;
  payloadValue?: string;
  payloadMatch?: PayloadMatch;
}

export const messageKeys = {
  all: ['messages'] as const,
  forApp: (appId: string) => [...messageKeys.all, appId] as const,
  list: (filter: MessageFilter) => [...messageKeys.forApp(filter.appId), 'list', filter] as const,
  detail: (appId: string, messageId: string) => [...messageKeys.forApp(appId), 'detail', messageId] as const,
};

/** Whether the list is a search, answered a stretch of time at a time (searchedBackTo): a payload search,
 * an event type, or a condition on the messages' deliveries, none of which an index serves
 * (lib/domain/messages/list-messages.ts). */
export const isMessageSearch = (filter: MessageFilter) =>
  isPayloadSearch(filter) ||
  filter.eventType !== undefined ||
  filter.statusCode !== undefined ||
  filter.errorClass !== undefined ||
  filter.minAttempts !== undefined;

const base = (appId: string) => `/api/v1/apps/${encodeURIComponent(appId)}/messages`;

export function messagesQuery(filter: MessageFilter) {
  return infiniteQueryOptions({
    queryKey: messageKeys.list(filter),
    queryFn: ({ signal, pageParam }) =>
      apiFetch<SearchablePage<MessageWithOutcome>>(base(filter.appId), {
        signal,
        query: {
          eventType: filter.eventType,
          id: filter.id,
          idempotencyKey: filter.idempotencyKey,
          statusCode: filter.statusCode,
          errorClass: filter.errorClass,
          minAttempts: filter.minAttempts,
          search: filter.search,
          payloadPath: filter.payloadPath,
          payloadValue: filter.payloadValue,
          payloadMatch: filter.payloadMatch,
          ...(filter.range ? rangeToWindow(filter.range) : {}),
          limit: 50,
          cursor: pageParam,
        },
      }),
    ...cursorPages,
    enabled: Boolean(filter.appId),
    // A live refresh would run every page's search again: a search refreshes when asked to.
    refetchInterval: isMessageSearch(filter) ? false : LIVE_REFRESH_MS,
  });
}

export function messageQuery(appId: string, messageId: string) {
  return queryOptions({
    queryKey: messageKeys.detail(appId, messageId),
    queryFn: ({ signal }) => apiFetch<MessageDetail>(`${base(appId)}/${encodeURIComponent(messageId)}`, { signal }),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export const sendMessage = (appId: string, body: z.input<typeof createMessageBody>) =>
  apiFetch<Message>(base(appId), { method: 'POST', body });

export const replayMessage = (appId: string, messageId: string) =>
  apiFetch<ReplayResult>(`${base(appId)}/${encodeURIComponent(messageId)}/replay`, {
    method: 'POST',
    body: {},
  });
