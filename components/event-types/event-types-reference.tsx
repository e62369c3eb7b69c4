'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { liveEventTypePagesQuery } from '@/lib/client/queries/event-types';
import { Card, CardHeader } from '../ui/card';
import { LoadMore } from '../ui/load-more';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { TextBlock } from '../ui/text-block';

/** The app's live event types as a reference for whoever receives them (the customer portal's page):
 * each one's description, example payload and JSON Schema, 100 at a time; nothing to change. The
 * operator's list, which edits them, is event-types-list.tsx. */
export function EventTypesReference({ appId }: { appId: string }) {
  const eventTypes = useInfiniteQuery(liveEventTypePagesQuery(appId));
  if (eventTypes.isPending) return <Loading label="Loading event types…" />;
  if (eventTypes.isError) return <ErrorState error={eventTypes.error} retry={() => void eventTypes.refetch()} />;
  const live = eventTypes.data.pages.flatMap((page) => page.data);
  return (
    <div>
      <PageHeader
        title="Event types"
        subtitle="What your endpoints can subscribe to, and what each payload looks like"
      />
      {live.length === 0 ? (
        <Card>
          <Empty title="No event types yet" />
        </Card>
      ) : (
        <div className="space-y-4">
          {live.map((eventType) => (
            <Card key={eventType.id} data-testid="event-type-reference">
              <CardHeader
                title={<span className="font-mono">{eventType.name}</span>}
                subtitle={eventType.description || undefined}
              />
              <div className="grid gap-3 p-3 lg:grid-cols-2">
                <div>
                  <div className="mb-1 text-xs font-medium text-zinc-500">Example payload</div>
                  {eventType.example === null || eventType.example === undefined ? (
                    <p className="text-sm text-zinc-500">No schema, so any JSON.</p>
                  ) : (
                    <TextBlock label="Example payload" text={JSON.stringify(eventType.example, null, 2)} />
                  )}
                </div>
                <div>
                  <div className="mb-1 text-xs font-medium text-zinc-500">JSON Schema</div>
                  {eventType.schema ? (
                    <TextBlock label="JSON Schema" text={JSON.stringify(eventType.schema, null, 2)} />
                  ) : (
                    <p className="text-sm text-zinc-500">None</p>
                  )}
                </div>
              </div>
            </Card>
          ))}
          <LoadMore pages={eventTypes} testId="event-types-reference-load-more" />
        </div>
      )}
    </div>
  );
}
