'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo } from 'react';
import { eventTypesQuery } from '@/lib/queries/event-types';
import { messagesQuery, type MessageFilter } from '@/lib/queries/messages';
import { isTimeRange } from '@/lib/queries/time-range';
import { AppSelect } from '../filters/app-select';
import { LiveStatus } from '../filters/live-status';
import { TimeRangePicker } from '../filters/time-range-picker';
import { useDefaultApp } from '../filters/use-default-app';
import { useUrlFilters } from '../filters/use-url-filters';
import { formatTime } from '../format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Select } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

const FILTER_NAMES = ['appId', 'eventType', 'range'] as const;

function preview(payload: unknown): string {
  const text = JSON.stringify(payload) ?? '';
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

export function MessagesList() {
  const [params, setParams] = useUrlFilters(FILTER_NAMES);
  const apps = useDefaultApp(params.appId, (appId) => setParams({ appId }));
  const filter: MessageFilter = useMemo(
    () => ({
      appId: params.appId ?? '',
      eventType: params.eventType,
      range: isTimeRange(params.range) ? params.range : undefined,
    }),
    [params],
  );
  const messages = useInfiniteQuery(messagesQuery(filter));
  const eventTypes = useQuery(eventTypesQuery(filter.appId));
  const rows = messages.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div>
      <PageHeader
        title="Messages"
        subtitle={
          filter.appId ? (
            <LiveStatus updatedAt={messages.dataUpdatedAt} fetching={messages.isFetching} failed={messages.isError} />
          ) : null
        }
        actions={
          <>
            <AppSelect value={params.appId} onChange={(appId) => setParams({ appId, eventType: undefined })} />
            <Select
              aria-label="Event type"
              className="w-48"
              value={params.eventType ?? ''}
              onChange={(e) => setParams({ eventType: e.target.value })}
            >
              <option value="">All event types</option>
              {eventTypes.data?.data.map((eventType) => (
                <option key={eventType.id} value={eventType.name}>
                  {eventType.name}
                </option>
              ))}
            </Select>
            <TimeRangePicker allowAll value={filter.range} onChange={(range) => setParams({ range })} />
          </>
        }
      />
      <Card>
        {apps.isSuccess && apps.data.data.length === 0 ? (
          <Empty title="No apps yet">Create an app first.</Empty>
        ) : !filter.appId || messages.isPending ? (
          <Loading label="Loading messages…" />
        ) : messages.isError && rows.length === 0 ? (
          <ErrorState error={messages.error} retry={() => void messages.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title="No messages match" />
        ) : (
          <>
            <Table>
              <thead>
                <tr>
                  <Th>Message</Th>
                  <Th>Event type</Th>
                  <Th>Payload</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody>
                {rows.map((message) => (
                  <Tr key={message.id}>
                    <Td>
                      <Link
                        className="font-mono text-xs hover:underline"
                        href={`/apps/${encodeURIComponent(message.appId)}/messages/${encodeURIComponent(message.id)}`}
                      >
                        {message.id}
                      </Link>
                    </Td>
                    <Td className="font-mono text-xs">{message.eventType}</Td>
                    <Td className="max-w-md truncate font-mono text-xs text-zinc-600">{preview(message.payload)}</Td>
                    <Td className="whitespace-nowrap text-xs text-zinc-500">{formatTime(message.createdAt)}</Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
            {messages.hasNextPage ? (
              <div className="p-3 text-center">
                <Button size="sm" disabled={messages.isFetchingNextPage} onClick={() => void messages.fetchNextPage()}>
                  Load more
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
