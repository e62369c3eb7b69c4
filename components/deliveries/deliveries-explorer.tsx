'use client';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  countMatchingDeliveries,
  deliveriesQuery,
  deliveryKeys,
  replayDeliveries,
  replayMatchingDeliveries,
  type DeliveryFilter,
} from '@/lib/client/queries/deliveries';
import { statsKeys } from '@/lib/client/queries/stats';
import type { Job } from '@/lib/contract/schemas/jobs';
import { isTimeRange } from '@/lib/client/queries/time-range';
import { DELIVERY_STATE_FILTERS, type DeliveryStateFilter } from '@/lib/domain/deliveries/delivery-states';
import { LiveStatus } from '../filters/live-status';
import { useDefaultApp } from '../filters/use-default-app';
import { useUrlFilters } from '../filters/use-url-filters';
import { countOf, formatCount } from '../format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { LoadMore } from '../ui/load-more';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { useViewer } from '../shared/viewer';
import { DeliveriesTable } from './deliveries-table';
import {
  activeFilterNames,
  DELIVERY_FILTER_NAMES,
  DeliveryFilters,
  type DeliveryFilterParams,
} from './delivery-filters';
import { ReplayMatchingDialog } from './replay-matching-dialog';
import { ReplaySuccessDialog } from './replay-success-dialog';
import { useCan } from '../auth/member-context';
import { SearchProgress } from '../filters/search-progress';
import { isDeliverySearch, type PayloadMatch } from '@/lib/contract/payload-search-params';

function isStateFilter(value: string | undefined): value is DeliveryStateFilter {
  return value !== undefined && (DELIVERY_STATE_FILTERS as readonly string[]).includes(value);
}

/** Deliveries by filter: the operator's explorer over any app, with bulk replay; in the customer portal
 * the session's app only, without bulk actions (the portal's API has none). */
export function DeliveriesExplorer() {
  const viewer = useViewer();
  const operator = viewer.kind === 'operator';
  const [params, setParams] = useUrlFilters(DELIVERY_FILTER_NAMES);
  const canReplay = useCan('deliveries.replay');
  const apps = useDefaultApp(params.appId, (appId) => setParams({ appId }), operator);
  const appId = operator ? params.appId : viewer.appId;
  const filter: DeliveryFilter = useMemo(
    () => ({
      appId: appId ?? '',
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
      search: params.search,
      payloadPath: params.payloadPath,
      payloadValue: params.payloadValue,
      payloadMatch: params.payloadMatch === 'contains' ? ('contains' as PayloadMatch) : undefined,
    }),
    [params, appId],
  );
  const deliveries = useInfiniteQuery(deliveriesQuery(filter));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [askingSelected, setAskingSelected] = useState(false);
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
  const onReplayFinished = async (job: Job) => {
    if (job.state === 'succeeded') {
      setNotice(`Replayed ${countOf(job.processed, 'delivery', 'deliveries')} matching the filter.`);
    }
    await invalidate();
  };

  const setFilter = (changes: Partial<DeliveryFilterParams>) => {
    setSelected(new Set());
    setNotice(null);
    setParams(changes);
  };
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  // Only what is on screen can be replayed: a selected row that a live refresh removed (its state
  // changed and no longer matches) is dropped rather than replayed unseen.
  const selectedRows = rows.filter((row) => selected.has(row.id));
  const selectedIds = selectedRows.map((row) => row.id);
  const selectedSucceeded = selectedRows.filter((row) => row.state === 'succeeded').length;
  const anyFilter = activeFilterNames(params).length > 0;
  // A search, or a filter no index serves: answered a stretch of time at a time (isDeliverySearch).
  const searching = isDeliverySearch(filter);
  const progress = searching ? (
    <SearchProgress
      searchedBackTo={deliveries.data?.pages.at(-1)?.searchedBackTo}
      more={deliveries.hasNextPage}
      fetching={deliveries.isFetchingNextPage}
      onContinue={() => void deliveries.fetchNextPage()}
    />
  ) : null;

  return (
    <div>
      <PageHeader
        title="Deliveries"
        subtitle={
          !operator ? (
            'Every webhook sent to your endpoints, newest first'
          ) : filter.appId ? (
            <LiveStatus
              updatedAt={deliveries.dataUpdatedAt}
              fetching={deliveries.isFetching}
              failed={deliveries.isError}
            />
          ) : null
        }
        actions={
          operator && canReplay ? (
            <>
              <Button
                disabled={selectedIds.length === 0 || replaySelected.isPending}
                onClick={() => (selectedSucceeded > 0 ? setAskingSelected(true) : replaySelected.mutate(selectedIds))}
                data-testid="replay-selected"
              >
                Replay selected ({selectedIds.length})
              </Button>
              <Button
                variant="danger"
                // With a payload search, the replay and its count take the search too (the whole range,
                // not only what the walk has reached so far).
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
          ) : null
        }
      />
      <DeliveryFilters params={{ ...params, appId }} range={filter.range} setFilter={setFilter} />
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
        {operator && apps.isSuccess && apps.data.data.length === 0 ? (
          <Empty title="No apps yet">Create an app and send a message to see deliveries here.</Empty>
        ) : !filter.appId || deliveries.isPending ? (
          <Loading label="Loading deliveries…" />
        ) : deliveries.isError && rows.length === 0 ? (
          <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
        ) : rows.length === 0 ? (
          <>
            <Empty title={searching && deliveries.hasNextPage ? 'No matches yet' : 'No deliveries match'}>
              {searching && deliveries.hasNextPage
                ? 'Nothing matched in the time searched so far.'
                : anyFilter
                  ? 'Try widening the filter.'
                  : operator
                    ? 'Send a message to this app.'
                    : 'Nothing was sent yet.'}
            </Empty>
            {progress}
          </>
        ) : (
          <>
            <DeliveriesTable
              deliveries={rows}
              selected={operator ? selected : undefined}
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
            {progress ?? <LoadMore pages={deliveries} />}
          </>
        )}
      </Card>
      <ReplaySuccessDialog
        open={askingSelected}
        succeeded={selectedSucceeded}
        total={selectedIds.length}
        onClose={() => setAskingSelected(false)}
        onConfirm={() => replaySelected.mutate(selectedIds)}
      />
      <ReplayMatchingDialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        filter={filter}
        count={countMatching}
        replay={replayMatching}
        onFinished={(job) => void onReplayFinished(job)}
      />
    </div>
  );
}
