'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  countMatchingDeliveries,
  deliveriesQuery,
  deliveryKeys,
  replayFilter,
  replayDeliveries,
  replayMatchingDeliveries,
  type DeliveryFilter,
} from '@/lib/client/queries/deliveries';
import { endpointsQuery } from '@/lib/client/queries/endpoints';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import { statsKeys } from '@/lib/client/queries/stats';
import type { Job } from '@/lib/contract/schemas/jobs';
import { isTimeRange, TIME_RANGES } from '@/lib/client/queries/time-range';
import {
  DELIVERY_STATE_FILTERS,
  DELIVERY_STATE_INFO,
  DELIVERY_STATES,
  describeStates,
  expandStateFilter,
  type DeliveryStateFilter,
} from '@/lib/domain/deliveries/delivery-states';
import { AppSelect } from '../filters/app-select';
import { FilterPanel } from '../filters/filter-panel';
import { LiveStatus } from '../filters/live-status';
import { SavedFilters } from '../filters/saved-filters';
import { TextFilter } from '../filters/text-filter';
import { TimeRangePicker } from '../filters/time-range-picker';
import { useDefaultApp } from '../filters/use-default-app';
import { useUrlFilters } from '../filters/use-url-filters';
import { countOf, formatCount } from '../format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { JobProgress } from '../jobs/job-progress';
import { Dialog } from '../ui/dialog';
import { Field, Select } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { DeliveriesTable } from './deliveries-table';

const FILTER_NAMES = [
  'appId',
  'endpointId',
  'eventType',
  'state',
  'errorClass',
  'statusCode',
  'minAttempts',
  'messageId',
  'idempotencyKey',
  'range',
  'id',
] as const;

function isStateFilter(value: string | undefined): value is DeliveryStateFilter {
  return value !== undefined && (DELIVERY_STATE_FILTERS as readonly string[]).includes(value);
}

/** The filter in words, for the replay confirmation: "event type order.paid, created in the last 1 h". */
function describeFilter(filter: DeliveryFilter, endpointUrl: string | undefined): string {
  const parts = [
    filter.endpointId ? `endpoint ${endpointUrl ?? filter.endpointId}` : null,
    filter.eventType ? `event type ${filter.eventType}` : null,
    filter.errorClass ? `error class ${filter.errorClass}` : null,
    filter.statusCode ? `status ${filter.statusCode}` : null,
    filter.minAttempts ? `at least ${filter.minAttempts} attempts` : null,
    filter.messageId ? `message ${filter.messageId}` : null,
    filter.idempotencyKey ? `idempotency key ${filter.idempotencyKey}` : null,
    filter.id ? `id ${filter.id}` : null,
    filter.range ? `created in the last ${TIME_RANGES[filter.range].label}` : null,
  ].filter(Boolean);
  return parts.length ? `this filter (${parts.join(', ')})` : 'in this app';
}

export function DeliveriesExplorer() {
  const [params, setParams] = useUrlFilters(FILTER_NAMES);
  const apps = useDefaultApp(params.appId, (appId) => setParams({ appId }));
  const filter: DeliveryFilter = useMemo(
    () => ({
      appId: params.appId ?? '',
      endpointId: params.endpointId,
      eventType: params.eventType,
      state: isStateFilter(params.state) ? params.state : undefined,
      errorClass: params.errorClass,
      statusCode: params.statusCode,
      minAttempts: params.minAttempts,
      messageId: params.messageId,
      idempotencyKey: params.idempotencyKey,
      range: isTimeRange(params.range) ? params.range : undefined,
      id: params.id,
    }),
    [params],
  );
  const deliveries = useInfiniteQuery(deliveriesQuery(filter));
  const endpoints = useQuery(endpointsQuery(filter.appId));
  const eventTypes = useQuery(eventTypesQuery(filter.appId));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: deliveryKeys.forApp(filter.appId) }),
      queryClient.invalidateQueries({ queryKey: statsKeys.all }),
    ]);

  const replaySelected = useMutation({
    mutationFn: (ids: string[]) => replayDeliveries(filter.appId, ids),
    onSuccess: async (result, ids) => {
      // Fewer than selected when a row was being delivered right then: its worker records the outcome.
      setNotice(
        `Replayed ${formatCount(result.replayed)} of ${countOf(ids.length, 'selected delivery', 'selected deliveries')}.`,
      );
      setSelected(new Set());
      await invalidate();
    },
  });
  const countMatching = useMutation({ mutationFn: () => countMatchingDeliveries(filter) });
  // A replay by filter is a background job (it can match millions): the dialog follows its progress,
  // and can be closed while it runs (the app's Jobs page lists it).
  const replayMatching = useMutation({ mutationFn: () => replayMatchingDeliveries(filter) });
  const replayJob = replayMatching.data?.job;
  const onReplayFinished = async (job: Job) => {
    if (job.state === 'succeeded') {
      setNotice(`Replayed ${countOf(job.processed, 'delivery', 'deliveries')} matching the filter.`);
    }
    await invalidate();
  };

  const setFilter = (changes: Partial<Record<(typeof FILTER_NAMES)[number], string | undefined>>) => {
    setSelected(new Set());
    setNotice(null);
    setParams(changes);
  };
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  const endpointUrl = endpoints.data?.data.find((endpoint) => endpoint.id === filter.endpointId)?.url;
  // Only what is on screen can be replayed: a selected row that a live refresh removed (its state
  // changed and no longer matches) is dropped rather than replayed unseen.
  const selectedIds = rows.filter((row) => selected.has(row.id)).map((row) => row.id);
  const replaySet = describeStates(expandStateFilter(replayFilter(filter).state));
  const anyFilter = FILTER_NAMES.some((name) => name !== 'appId' && params[name]);

  return (
    <div>
      <PageHeader
        title="Deliveries"
        subtitle={
          filter.appId ? (
            <LiveStatus
              updatedAt={deliveries.dataUpdatedAt}
              fetching={deliveries.isFetching}
              failed={deliveries.isError}
            />
          ) : null
        }
        actions={
          <>
            <Button
              disabled={selectedIds.length === 0 || replaySelected.isPending}
              onClick={() => replaySelected.mutate(selectedIds)}
              data-testid="replay-selected"
            >
              Replay selected ({selectedIds.length})
            </Button>
            <Button
              variant="danger"
              disabled={!filter.appId}
              onClick={() => {
                replayMatching.reset();
                setConfirmOpen(true);
                countMatching.mutate();
              }}
              data-testid="replay-matching"
            >
              {filter.state ? 'Replay matching filter…' : 'Replay failed matching filter…'}
            </Button>
          </>
        }
      />
      <FilterPanel active={FILTER_NAMES.filter((name) => name !== 'appId' && params[name]).length}>
        <Card className="mb-3 p-3">
          {/* Four columns at most: any more and the selects cut off the values they show. */}
          <div className="grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
            <Field label="App">
              <AppSelect
                className="w-full"
                value={params.appId}
                onChange={(appId) => setFilter({ appId, endpointId: undefined, eventType: undefined })}
              />
            </Field>
            <Field label="Endpoint">
              <Select
                aria-label="Endpoint"
                value={params.endpointId ?? ''}
                onChange={(e) => setFilter({ endpointId: e.target.value })}
              >
                <option value="">All endpoints</option>
                {endpoints.data?.data.map((endpoint) => (
                  <option key={endpoint.id} value={endpoint.id}>
                    {endpoint.url}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Event type">
              <Select
                aria-label="Event type"
                value={params.eventType ?? ''}
                onChange={(e) => setFilter({ eventType: e.target.value })}
              >
                <option value="">All event types</option>
                {eventTypes.data?.data.map((eventType) => (
                  <option key={eventType.id} value={eventType.name}>
                    {eventType.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="State">
              <Select
                aria-label="State"
                value={params.state ?? ''}
                onChange={(e) => setFilter({ state: e.target.value })}
              >
                <option value="">All states</option>
                <option value="failed">failed (retrying or dead)</option>
                {DELIVERY_STATES.map((state) => (
                  <option key={state} value={state} title={DELIVERY_STATE_INFO[state].description}>
                    {state}
                  </option>
                ))}
                {/* An old link's `pending` still filters; the list shows it under its current meaning. */}
                {params.state === 'pending' ? <option value="pending">pending (waiting or retrying)</option> : null}
              </Select>
            </Field>
            <Field label="Error class">
              <TextFilter
                label="Error class"
                placeholder="e.g. timeout"
                value={params.errorClass}
                onCommit={(errorClass) => setFilter({ errorClass })}
              />
            </Field>
            <Field label="Status code">
              <TextFilter
                label="Status code"
                placeholder="e.g. 503"
                inputMode="numeric"
                value={params.statusCode}
                onCommit={(statusCode) => setFilter({ statusCode })}
              />
            </Field>
            <Field label="Min. attempts">
              <TextFilter
                label="Min. attempts"
                placeholder="e.g. 3"
                inputMode="numeric"
                value={params.minAttempts}
                onCommit={(minAttempts) => setFilter({ minAttempts })}
              />
            </Field>
            <Field label="Message id / webhook-id">
              <TextFilter
                label="Message id"
                placeholder="msg_…"
                value={params.messageId}
                onCommit={(messageId) => setFilter({ messageId })}
              />
            </Field>
            <Field label="Idempotency key">
              <TextFilter
                label="Idempotency key"
                value={params.idempotencyKey}
                onCommit={(idempotencyKey) => setFilter({ idempotencyKey })}
              />
            </Field>
            <Field label="Delivery id">
              <TextFilter
                label="Delivery id"
                placeholder="dlv_…"
                value={params.id}
                onCommit={(id) => setFilter({ id })}
              />
            </Field>
          </div>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
            <TimeRangePicker allowAll value={filter.range} onChange={(range) => setFilter({ range })} />
            <SavedFilters page="deliveries" pathname="/deliveries" />
            <Button
              variant="ghost"
              disabled={!anyFilter}
              onClick={() =>
                setFilter(Object.fromEntries(FILTER_NAMES.filter((n) => n !== 'appId').map((n) => [n, undefined])))
              }
            >
              Clear filters
            </Button>
          </div>
        </Card>
      </FilterPanel>
      {notice ? (
        <p
          role="status"
          className="mb-3 rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800"
        >
          {notice}
        </p>
      ) : null}
      <InlineError error={replaySelected.error} />
      <Card>
        {apps.isSuccess && apps.data.data.length === 0 ? (
          <Empty title="No apps yet">Create an app and send a message to see deliveries here.</Empty>
        ) : !filter.appId || deliveries.isPending ? (
          <Loading label="Loading deliveries…" />
        ) : deliveries.isError && rows.length === 0 ? (
          <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title="No deliveries match">
            {anyFilter ? 'Try widening the filter.' : 'Send a message to this app.'}
          </Empty>
        ) : (
          <>
            <DeliveriesTable
              deliveries={rows}
              selected={selected}
              onToggle={(id) =>
                setSelected((current) => {
                  const next = new Set(current);
                  if (next.has(id)) next.delete(id);
                  else next.add(id);
                  return next;
                })
              }
              onToggleAll={(ids, select) =>
                setSelected((current) => {
                  const next = new Set(current);
                  for (const id of ids) {
                    if (select) next.add(id);
                    else next.delete(id);
                  }
                  return next;
                })
              }
            />
            {deliveries.hasNextPage ? (
              <div className="p-3 text-center">
                <Button
                  size="sm"
                  disabled={deliveries.isFetchingNextPage}
                  onClick={() => void deliveries.fetchNextPage()}
                >
                  {deliveries.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Card>
      <Dialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title={filter.state ? 'Replay deliveries' : 'Replay failed deliveries'}
        footer={
          replayJob ? (
            <Button onClick={() => setConfirmOpen(false)}>Close</Button>
          ) : (
            <>
              <Button onClick={() => setConfirmOpen(false)}>Cancel</Button>
              <Button
                variant="danger"
                data-testid="confirm-replay-matching"
                disabled={!countMatching.data || countMatching.data.matched === 0 || replayMatching.isPending}
                onClick={() => replayMatching.mutate()}
              >
                {countMatching.data ? `Replay ${formatCount(countMatching.data.matched)}` : 'Replay'}
              </Button>
            </>
          )
        }
      >
        {countMatching.isPending ? (
          <Loading label="Counting matching deliveries…" />
        ) : countMatching.isError ? (
          <InlineError error={countMatching.error} />
        ) : countMatching.data ? (
          <p className="text-sm" data-testid="replay-matching-count">
            {countMatching.data.matched === 0
              ? `No ${replaySet} delivery matches ${describeFilter(filter, endpointUrl)}.`
              : `${countOf(countMatching.data.matched, 'delivery', 'deliveries')} (${replaySet}) ${countMatching.data.matched === 1 ? 'matches' : 'match'} ${describeFilter(filter, endpointUrl)}. A background job sends each again, in batches you can follow and cancel; attempts so far are kept, and a delivery being sent right now is left to finish.`}
          </p>
        ) : null}
        {replayJob ? <JobProgress job={replayJob} onFinished={(job) => void onReplayFinished(job)} /> : null}
        <InlineError error={replayMatching.error} />
      </Dialog>
    </div>
  );
}
