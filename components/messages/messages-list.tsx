'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo } from 'react';
import { isMessageSearch, messagesQuery, type MessageFilter } from '@/lib/client/queries/messages';
import type { MessageOutcome } from '@/lib/contract/schemas/messages';
import { isTimeRange } from '@/lib/client/queries/time-range';
import { AppSelect } from '../filters/app-select';
import { ErrorClassSelect } from '../filters/error-class-select';
import { EventTypeSelect } from '../filters/event-type-select';
import { FilterPanel } from '../filters/filter-panel';
import { LiveStatus } from '../filters/live-status';
import { SavedFilters } from '../filters/saved-filters';
import { TextFilterFields, type TextFilterSpec } from '../filters/text-filter-fields';
import { TimeRangePicker } from '../filters/time-range-picker';
import { PAYLOAD_SEARCH_NAMES, PayloadSearchFields } from '../filters/payload-search-fields';
import { SearchProgress } from '../filters/search-progress';
import type { PayloadMatch } from '@/lib/contract/payload-search-params';
import { useDefaultApp } from '../filters/use-default-app';
import { useUrlFilters } from '../filters/use-url-filters';
import { formatTime } from '../format';
import { Card } from '../ui/card';
import { LoadMore } from '../ui/load-more';
import { Field } from '../ui/field';
import { Badge, type Tone } from '../ui/badge';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

const FILTER_NAMES = [
  'appId',
  'eventType',
  'range',
  'id',
  'idempotencyKey',
  'statusCode',
  'errorClass',
  'minAttempts',
  ...PAYLOAD_SEARCH_NAMES,
] as const;

/** The free-text filters, in the order the panel shows them; status, error class and attempts match a
 * message when one of its deliveries does. */
const MESSAGE_TEXT_FILTERS: readonly TextFilterSpec<(typeof FILTER_NAMES)[number]>[] = [
  { name: 'id', field: 'Message id / webhook-id', label: 'Message id', placeholder: 'msg_…' },
  { name: 'idempotencyKey', field: 'Idempotency key', label: 'Idempotency key' },
  {
    name: 'statusCode',
    field: "A delivery's status code",
    label: 'Status code',
    placeholder: 'e.g. 503',
    numeric: true,
  },
  {
    name: 'minAttempts',
    field: "A delivery's min. attempts",
    label: 'Min. attempts',
    placeholder: 'e.g. 3',
    numeric: true,
  },
];

/** A message's deliveries in a phrase: "all delivered", "2 failing", "1 dead", "3 in progress". */
function Outcome({ outcome }: { outcome: MessageOutcome }) {
  const parts: { text: string; tone: Tone }[] = [];
  if (outcome.dead) parts.push({ text: `${outcome.dead} dead`, tone: 'fail' });
  if (outcome.retrying) parts.push({ text: `${outcome.retrying} failing`, tone: 'retry' });
  const inProgress = outcome.waiting + outcome.delivering;
  if (inProgress) parts.push({ text: `${inProgress} in progress`, tone: 'flight' });
  if (outcome.cancelled) parts.push({ text: `${outcome.cancelled} cancelled`, tone: 'neutral' });
  if (outcome.deliveries === 0) return <span className="text-xs text-zinc-500">no endpoint subscribed</span>;
  if (outcome.succeeded === outcome.deliveries)
    return <Badge tone="ok">{outcome.deliveries === 1 ? 'delivered' : `all ${outcome.deliveries} delivered`}</Badge>;
  return (
    <span className="flex flex-wrap gap-1">
      {parts.map((part) => (
        <Badge key={part.text} tone={part.tone}>
          {part.text}
        </Badge>
      ))}
    </span>
  );
}

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
      id: params.id,
      idempotencyKey: params.idempotencyKey,
      statusCode: params.statusCode,
      errorClass: params.errorClass,
      minAttempts: params.minAttempts,
      search: params.search,
      payloadPath: params.payloadPath,
      payloadValue: params.payloadValue,
      payloadMatch: params.payloadMatch === 'contains' ? ('contains' as PayloadMatch) : undefined,
    }),
    [params],
  );
  const messages = useInfiniteQuery(messagesQuery(filter));
  const rows = messages.data?.pages.flatMap((page) => page.data) ?? [];
  const searching = isMessageSearch(filter);
  const progress = searching ? (
    <SearchProgress
      searchedBackTo={messages.data?.pages.at(-1)?.searchedBackTo}
      more={messages.hasNextPage}
      fetching={messages.isFetchingNextPage}
      onContinue={() => void messages.fetchNextPage()}
    />
  ) : null;
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
            <EventTypeSelect
              className="w-48"
              appId={filter.appId}
              value={params.eventType}
              onChange={(eventType) => setParams({ eventType })}
            />
            <TimeRangePicker allowAll value={filter.range} onChange={(range) => setParams({ range })} />
          </>
        }
      />
      <FilterPanel
        active={FILTER_NAMES.filter((name) => !['appId', 'eventType', 'range'].includes(name) && params[name]).length}
      >
        <Card className="mb-3 p-3">
          <div className="grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
            <TextFilterFields specs={MESSAGE_TEXT_FILTERS} values={params} onCommit={setParams} />
            <PayloadSearchFields values={params} onCommit={setParams} />
            <Field label="A delivery's error class (latest attempt)">
              <ErrorClassSelect value={params.errorClass} onChange={(errorClass) => setParams({ errorClass })} />
            </Field>
          </div>
          <div className="mt-3">
            <SavedFilters page="messages" pathname="/messages" />
          </div>
        </Card>
      </FilterPanel>
      <Card>
        {apps.isSuccess && apps.data.data.length === 0 ? (
          <Empty title="No apps yet">Create an app first.</Empty>
        ) : !filter.appId || messages.isPending ? (
          <Loading label="Loading messages…" />
        ) : messages.isError && rows.length === 0 ? (
          <ErrorState error={messages.error} retry={() => void messages.refetch()} />
        ) : rows.length === 0 ? (
          <>
            <Empty title={searching && messages.hasNextPage ? 'No matches yet' : 'No messages match'}>
              {searching && messages.hasNextPage ? 'Nothing matched in the time searched so far.' : null}
            </Empty>
            {progress}
          </>
        ) : (
          <>
            <Table>
              <thead>
                <tr>
                  <Th>Message</Th>
                  <Th className="max-sm:hidden">Event type</Th>
                  <Th>Deliveries</Th>
                  <Th className="max-md:hidden">Payload</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody>
                {rows.map((message) => (
                  <Tr key={message.id} data-testid="message-row">
                    <Td>
                      <Link
                        className="break-all font-mono text-xs hover:underline"
                        href={`/apps/${encodeURIComponent(message.appId)}/messages/${encodeURIComponent(message.id)}`}
                      >
                        {message.id}
                      </Link>
                    </Td>
                    <Td className="font-mono text-xs max-sm:hidden">{message.eventType}</Td>
                    <Td data-testid="message-outcome">
                      <Outcome outcome={message.outcome} />
                    </Td>
                    <Td className="max-w-md truncate font-mono text-xs text-zinc-600 max-md:hidden">
                      {preview(message.payload)}
                    </Td>
                    <Td className="whitespace-nowrap text-xs text-zinc-500">{formatTime(message.createdAt)}</Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
            {progress ?? <LoadMore pages={messages} />}
          </>
        )}
      </Card>
    </div>
  );
}
