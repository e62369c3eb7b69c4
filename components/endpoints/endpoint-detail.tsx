'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { deliveriesQuery } from '@/lib/client/queries/deliveries';
import { endpointQuery } from '@/lib/client/queries/endpoints';
import { endpointStatsQuery } from '@/lib/client/queries/stats';
import { isTimeRange, type TimeRange } from '@/lib/client/queries/time-range';
import { LatencyChart } from '../charts/latency-chart';
import { ThroughputChart } from '../charts/throughput-chart';
import { DeliveriesTable } from '../deliveries/deliveries-table';
import { LiveStatus } from '../filters/live-status';
import { TimeRangePicker } from '../filters/time-range-picker';
import { useUrlFilters } from '../filters/use-url-filters';
import { formatCount, formatCountAtLeast, formatLatency, formatPercent, formatRelative, formatTime } from '../format';
import { ErrorClass } from '../shared/state-badge';
import { canChange, useViewer, viewerPaths } from '../shared/viewer';
import { Card, CardBody, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Stat } from '../ui/stat';
import { Empty, ErrorState, Loading } from '../ui/states';
import { EndpointActions } from './endpoint-actions';
import { EndpointStatusBadges } from './endpoint-health-cell';
import { useCan } from '../auth/member-context';

const FILTER_NAMES = ['range'] as const;

/** An endpoint's page: its health, its traffic over a chosen range (success rate, latency p50/p95, from
 * the per-endpoint rollups), recent deliveries and actions. The operator also sees how the worker
 * treats it (concurrency, rate limit, retry policy, custom headers); the customer portal does not. */
export function EndpointDetail({ appId, endpointId }: { appId: string; endpointId: string }) {
  const viewer = useViewer();
  const operator = viewer.kind === 'operator';
  const paths = viewerPaths(viewer, appId);
  const [params, setParams] = useUrlFilters(FILTER_NAMES);
  const canWrite = useCan('integrations.write');
  const range: TimeRange = isTimeRange(params.range) ? params.range : '1h';
  const endpoint = useQuery(endpointQuery(appId, endpointId));
  const stats = useQuery(endpointStatsQuery(appId, endpointId, range));
  const deliveries = useInfiniteQuery(deliveriesQuery({ appId, endpointId }, 20));
  if (endpoint.isPending) return <Loading label="Loading endpoint…" />;
  if (endpoint.isError) return <ErrorState error={endpoint.error} retry={() => void endpoint.refetch()} />;
  const e = endpoint.data;
  const health = e.health;
  const recent = deliveries.data?.pages[0]?.data ?? [];
  return (
    <div className="space-y-4">
      {operator ? null : (
        <div className="text-sm">
          <Link href={paths.endpoints} className="text-zinc-500 hover:underline">
            ← Endpoints
          </Link>
        </div>
      )}
      <PageHeader
        title={
          <span className="whitespace-normal break-all font-mono text-base" data-testid="endpoint-url">
            {e.url}
          </span>
        }
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <EndpointStatusBadges endpoint={e} />
            {operator ? <span className="font-mono text-xs text-zinc-400">{e.id}</span> : null}
            {!operator && e.description ? <span>{e.description}</span> : null}
            <LiveStatus updatedAt={endpoint.dataUpdatedAt} fetching={endpoint.isFetching} />
          </span>
        }
      />
      {!e.enabled ? (
        <div role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Disabled {e.disabledAt ? formatRelative(e.disabledAt) : ''}
          {e.disabledReason ? `: ${e.disabledReason}` : ''}. Webhooks wait until it is enabled again.
        </div>
      ) : null}
      {canChange(viewer) && canWrite ? <EndpointActions endpoint={e} /> : null}
      <section aria-label="Health" className="grid grid-cols-2 gap-2 md:grid-cols-3 xl:grid-cols-6">
        <Stat label="Success 24 h" value={formatPercent(health?.successRate24h)} />
        <Stat label="Attempts 24 h" value={formatCount(health?.attempts24h)} />
        <Stat
          label="Queued"
          value={health ? formatCountAtLeast(health.pending, health.pendingCapped) : formatCount(null)}
        />
        <Stat
          label="Failure streak"
          value={formatCount(health?.consecutiveFailures)}
          tone={health?.consecutiveFailures ? 'fail' : undefined}
        />
        <Stat label="Last success" value={<span className="text-sm">{formatRelative(health?.lastSuccessAt)}</span>} />
        <Stat
          label="Last failure"
          value={<span className="text-sm">{formatRelative(health?.lastFailureAt)}</span>}
          hint={<ErrorClass value={health?.lastErrorClass ?? null} />}
        />
      </section>
      <Card>
        <CardHeader
          title="Traffic"
          subtitle="Every attempt in the range, retries included; latency is how long the endpoint took to answer"
          actions={<TimeRangePicker value={range} onChange={(next) => setParams({ range: next })} />}
        />
        {stats.isPending ? (
          <Loading label="Loading traffic…" />
        ) : stats.isError && !stats.data ? (
          <ErrorState error={stats.error} retry={() => void stats.refetch()} />
        ) : (
          <CardBody className="space-y-4 px-2">
            <section
              aria-label="Traffic in the range"
              data-testid="endpoint-stats"
              className="grid grid-cols-2 gap-2 px-2 md:grid-cols-4"
            >
              <Stat label="Attempts" value={formatCount(stats.data.totals.attempts)} testId="endpoint-stats-attempts" />
              <Stat
                label="Success rate"
                value={formatPercent(stats.data.totals.successRate)}
                testId="endpoint-stats-success-rate"
              />
              <Stat
                label="Latency p50"
                value={formatLatency(stats.data.totals.latencyMs.p50)}
                testId="endpoint-stats-p50"
              />
              <Stat
                label="Latency p95"
                value={formatLatency(stats.data.totals.latencyMs.p95)}
                testId="endpoint-stats-p95"
              />
            </section>
            <div className="grid gap-4 lg:grid-cols-2">
              <ThroughputChart series={stats.data.series} bucketSeconds={stats.data.bucketSeconds} />
              <LatencyChart series={stats.data.series} bucketSeconds={stats.data.bucketSeconds} />
            </div>
          </CardBody>
        )}
      </Card>
      <Card>
        <CardHeader
          title="Recent deliveries"
          actions={
            <Link
              className="text-xs text-zinc-600 underline-offset-2 hover:underline"
              href={paths.deliveries(endpointId)}
            >
              {operator ? 'Open in explorer' : 'All deliveries'}
            </Link>
          }
        />
        {deliveries.isPending ? (
          <Loading label="Loading deliveries…" />
        ) : deliveries.isError ? (
          <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
        ) : recent.length === 0 ? (
          <Empty title="No deliveries yet">Send a test event to see one here.</Empty>
        ) : (
          <DeliveriesTable deliveries={recent} showEndpoint={false} />
        )}
      </Card>
      <Card className="px-4 py-3 text-sm">
        <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-2">
          <div>
            <dt className="inline text-zinc-500">Event types: </dt>
            <dd className="inline font-mono text-xs">{e.eventTypes.length ? e.eventTypes.join(', ') : 'all'}</dd>
          </div>
          {operator ? (
            <>
              <div>
                <dt className="inline text-zinc-500">Concurrency: </dt>
                <dd className="inline">
                  {e.maxConcurrency}
                  {e.rateLimitPerSecond ? ` · ${e.rateLimitPerSecond}/s` : ''}
                  {e.heldByRateLimit && (
                    <span className="text-amber-700" data-testid="held-by-rate-limit">
                      {' '}
                      · holding deliveries back to keep to it
                    </span>
                  )}
                </dd>
              </div>
              <div>
                <dt className="inline text-zinc-500">Retries: </dt>
                <dd className="inline" data-testid="retry-policy">
                  <span className="font-mono text-xs">{e.retryPolicy.retrySchedule}</span> ({e.retryPolicy.maxAttempts}{' '}
                  attempts,{' '}
                  {e.retryPolicy.retryScheduleFrom === 'endpoint' ? 'own' : `${e.retryPolicy.retryScheduleFrom}'s`}) ·
                  timeout {e.retryPolicy.timeoutMs} ms (
                  {e.retryPolicy.timeoutFrom === 'endpoint' ? 'own' : `${e.retryPolicy.timeoutFrom}'s`})
                </dd>
              </div>
              <div>
                <dt className="inline text-zinc-500">Custom headers: </dt>
                <dd className="inline font-mono text-xs">{Object.keys(e.headers).join(', ') || 'none'}</dd>
              </div>
            </>
          ) : null}
          <div>
            <dt className="inline text-zinc-500">Created: </dt>
            <dd className="inline">{formatTime(e.createdAt)}</dd>
          </div>
          {operator && e.description ? (
            <div className="sm:col-span-2">
              <dt className="inline text-zinc-500">Description: </dt>
              <dd className="inline">{e.description}</dd>
            </div>
          ) : null}
        </dl>
      </Card>
    </div>
  );
}
