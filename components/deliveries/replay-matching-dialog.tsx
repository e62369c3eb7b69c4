'use client';
import { useQuery, type UseMutationResult } from '@tanstack/react-query';
import {
  replayFilter,
  type countMatchingDeliveries,
  type DeliveryFilter,
  type replayMatchingDeliveries,
} from '@/lib/client/queries/deliveries';
import { endpointQuery } from '@/lib/client/queries/endpoints';
import { TIME_RANGES } from '@/lib/client/queries/time-range';
import type { Job } from '@/lib/contract/schemas/jobs';
import { describeStates, expandStateFilter } from '@/lib/domain/deliveries/delivery-states';
import { countOf, formatCountAtLeast } from '../format';
import { JobProgress } from '../jobs/job-progress';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { InlineError, Loading } from '../ui/states';

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
    filter.search ? `payload containing "${filter.search}"` : null,
    filter.payloadPath && filter.payloadValue
      ? `payload ${filter.payloadPath} ${filter.payloadMatch === 'contains' ? 'containing' : 'equal to'} ${filter.payloadValue}`
      : null,
  ].filter(Boolean);
  return parts.length ? `this filter (${parts.join(', ')})` : 'in this app';
}

/**
 * The confirmation of a replay by filter: how many deliveries match, in words, then the progress of
 * the background job that replays them. The explorer owns the count and the replay, as it starts the
 * count when it opens this.
 */
export function ReplayMatchingDialog({
  open,
  onClose,
  filter,
  count,
  replay,
  onFinished,
}: {
  open: boolean;
  onClose: () => void;
  filter: DeliveryFilter;
  count: UseMutationResult<Awaited<ReturnType<typeof countMatchingDeliveries>>, Error, void>;
  replay: UseMutationResult<Awaited<ReturnType<typeof replayMatchingDeliveries>>, Error, void>;
  onFinished: (job: Job) => void;
}) {
  // The filter's endpoint by its own read: it may be beyond the first 250 a picker lists.
  const endpoint = useQuery({
    ...endpointQuery(filter.appId, filter.endpointId ?? ''),
    enabled: Boolean(filter.appId && filter.endpointId),
  });
  const endpointUrl = endpoint.data?.url;
  const replaySet = describeStates(expandStateFilter(replayFilter(filter).state));
  const replayJob = replay.data?.job;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={filter.state ? 'Replay deliveries' : 'Replay failed deliveries'}
      footer={
        replayJob ? (
          <Button onClick={onClose}>Close</Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              variant="danger"
              data-testid="confirm-replay-matching"
              disabled={
                !count.data || (count.data.matched === 0 && !count.data.matchedIsLowerBound) || replay.isPending
              }
              onClick={() => replay.mutate()}
            >
              {count.data
                ? `Replay ${formatCountAtLeast(count.data.matched, count.data.matchedIsLowerBound)}`
                : 'Replay'}
            </Button>
          </>
        )
      }
    >
      {count.isPending ? (
        <Loading label="Counting matching deliveries…" />
      ) : count.isError ? (
        <InlineError error={count.error} />
      ) : count.data ? (
        <p className="text-sm" data-testid="replay-matching-count">
          {count.data.matched === 0 && !count.data.matchedIsLowerBound
            ? `No ${replaySet} delivery matches ${describeFilter(filter, endpointUrl)}.`
            : count.data.matchedIsLowerBound
              ? `At least ${countOf(count.data.matched, 'delivery', 'deliveries')} (${replaySet}) match ${describeFilter(filter, endpointUrl)}: counting stopped there, since a payload search reads every payload. A background job sends every match again, however many, in batches you can follow and cancel; attempts so far are kept, and a delivery being sent right now is left to finish.`
              : `${countOf(count.data.matched, 'delivery', 'deliveries')} (${replaySet}) ${count.data.matched === 1 ? 'matches' : 'match'} ${describeFilter(filter, endpointUrl)}. A background job sends each again, in batches you can follow and cancel; attempts so far are kept, and a delivery being sent right now is left to finish.`}
        </p>
      ) : null}
      {replayJob ? <JobProgress job={replayJob} onFinished={onFinished} /> : null}
      <InlineError error={replay.error} />
    </Dialog>
  );
}
