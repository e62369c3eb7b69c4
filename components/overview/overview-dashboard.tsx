'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { statsQuery } from '@/lib/queries/stats';
import { isTimeRange, type TimeRange } from '@/lib/queries/time-range';
import type { Stats } from '@/lib/queries/types';
import { LatencyChart } from '../charts/latency-chart';
import { QueueDepthChart } from '../charts/queue-depth-chart';
import { ThroughputChart } from '../charts/throughput-chart';
import { AppSelect } from '../filters/app-select';
import { LiveStatus } from '../filters/live-status';
import { TimeRangePicker } from '../filters/time-range-picker';
import { useUrlFilters } from '../filters/use-url-filters';
import { formatCount, formatMs, formatPercent, formatRate } from '../format';
import { ErrorClass, StatusCode } from '../shared/state-badge';
import { Card, CardBody, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Stat } from '../ui/stat';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

const FILTER_NAMES = ['range', 'appId'] as const;

export function OverviewDashboard() {
  const [filters, setFilters] = useUrlFilters(FILTER_NAMES);
  const range: TimeRange = isTimeRange(filters.range) ? filters.range : '1h';
  const stats = useQuery(statsQuery({ range, appId: filters.appId }));
  return (
    <div>
      <PageHeader
        title="Overview"
        subtitle={<LiveStatus updatedAt={stats.dataUpdatedAt} fetching={stats.isFetching} failed={stats.isError} />}
        actions={
          <>
            <AppSelect allowAll value={filters.appId} onChange={(appId) => setFilters({ appId })} />
            <TimeRangePicker value={range} onChange={(next) => setFilters({ range: next })} />
          </>
        }
      />
      {stats.isPending ? (
        <Loading label="Loading stats…" />
      ) : stats.isError && !stats.data ? (
        <ErrorState error={stats.error} retry={() => void stats.refetch()} />
      ) : (
        <OverviewBody stats={stats.data} appId={filters.appId} range={range} />
      )}
    </div>
  );
}

function OverviewBody({ stats, appId, range }: { stats: Stats; appId?: string; range: TimeRange }) {
  const { queue, totals } = stats;
  const explorer = (extra: Record<string, string>) =>
    appId ? `/deliveries?${new URLSearchParams({ appId, range, ...extra }).toString()}` : null;
  return (
    <div className="space-y-4">
      <section aria-label="Queue depth" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="Pending" value={formatCount(queue.pending)} testId="queue-pending" />
        <Stat label="Delivering" value={formatCount(queue.delivering)} tone="flight" testId="queue-delivering" />
        <Stat label="Retry scheduled" value={formatCount(queue.scheduled)} tone="retry" testId="queue-scheduled" />
        <Stat label="Dead" value={formatCount(queue.dead)} tone={queue.dead ? 'fail' : undefined} testId="queue-dead" />
      </section>
      <section aria-label="Totals" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
        <Stat label="Deliveries / s" value={formatRate(totals.deliveriesPerSecond)} testId="deliveries-per-second" />
        <Stat
          label="Success rate"
          value={formatPercent(totals.successRate)}
          tone={totals.successRate == null ? undefined : totals.successRate >= 0.99 ? 'ok' : 'fail'}
          testId="success-rate"
        />
        <Stat
          label="Attempts"
          value={formatCount(totals.attempts)}
          hint={`${formatCount(totals.failed)} failed`}
          testId="attempts-total"
        />
        <Stat label="Latency p50" value={formatMs(totals.latencyMs.p50)} testId="latency-p50" />
        <Stat label="Latency p95" value={formatMs(totals.latencyMs.p95)} testId="latency-p95" />
        <Stat label="Latency p99" value={formatMs(totals.latencyMs.p99)} testId="latency-p99" />
      </section>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card>
          <CardHeader title="Throughput" subtitle={`Attempts per ${stats.bucketSeconds / 60} min, succeeded and failed`} />
          <CardBody className="px-2 py-3">
            <ThroughputChart series={stats.series} bucketSeconds={stats.bucketSeconds} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Latency" subtitle="Percentiles per bucket" />
          <CardBody className="px-2 py-3">
            <LatencyChart series={stats.series} bucketSeconds={stats.bucketSeconds} />
          </CardBody>
        </Card>
        <Card className="xl:col-span-2">
          <CardHeader title="Queue depth" subtitle="Sampled once a minute by the workers" />
          <CardBody className="px-2 py-3">
            <QueueDepthChart series={stats.series} bucketSeconds={stats.bucketSeconds} />
          </CardBody>
        </Card>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader title="Errors by class" />
          {stats.errorClasses.length === 0 ? (
            <Empty title="No failed attempts in this range" />
          ) : (
            <Table data-testid="error-classes">
              <thead>
                <tr>
                  <Th>Error class</Th>
                  <Th className="text-right">Attempts</Th>
                </tr>
              </thead>
              <tbody>
                {stats.errorClasses.map((row) => {
                  const href = explorer({ errorClass: row.errorClass });
                  return (
                    <Tr key={row.errorClass}>
                      <Td>{href ? <Link href={href}><ErrorClass value={row.errorClass} /></Link> : <ErrorClass value={row.errorClass} />}</Td>
                      <Td className="tabular text-right">{formatCount(row.count)}</Td>
                    </Tr>
                  );
                })}
              </tbody>
            </Table>
          )}
        </Card>
        <Card>
          <CardHeader title="Responses by status code" />
          {stats.statusCodes.length === 0 ? (
            <Empty title="No responses in this range" />
          ) : (
            <Table data-testid="status-codes">
              <thead>
                <tr>
                  <Th>Status</Th>
                  <Th className="text-right">Attempts</Th>
                </tr>
              </thead>
              <tbody>
                {stats.statusCodes.map((row) => (
                  <Tr key={row.statusCode}>
                    <Td>
                      <StatusCode code={row.statusCode} />
                    </Td>
                    <Td className="tabular text-right">{formatCount(row.count)}</Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card>
      </div>
      <Card>
        <CardHeader title="Worst endpoints" subtitle="Most failed attempts in this range" />
        {stats.worstEndpoints.length === 0 ? (
          <Empty title="No endpoint failed in this range" />
        ) : (
          <Table data-testid="worst-endpoints">
            <thead>
              <tr>
                <Th>Endpoint</Th>
                <Th className="text-right">Attempts</Th>
                <Th className="text-right">Failed</Th>
                <Th className="text-right">Success</Th>
                <Th>Last error</Th>
              </tr>
            </thead>
            <tbody>
              {stats.worstEndpoints.map((row) => (
                <Tr key={row.endpointId}>
                  <Td className="max-w-md">
                    <Link
                      className="break-all font-mono text-xs text-zinc-900 underline-offset-2 hover:underline"
                      href={`/apps/${encodeURIComponent(row.appId)}/endpoints/${encodeURIComponent(row.endpointId)}`}
                    >
                      {row.url}
                    </Link>
                  </Td>
                  <Td className="tabular text-right">{formatCount(row.attempts)}</Td>
                  <Td className="tabular text-right text-red-700">{formatCount(row.failed)}</Td>
                  <Td className="tabular text-right">{formatPercent(row.successRate)}</Td>
                  <Td>
                    <ErrorClass value={row.lastErrorClass} />
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </div>
  );
}
