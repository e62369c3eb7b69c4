'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { DELIVERY_STATE_INFO } from '@/lib/domain/deliveries/delivery-states';
import { statsQuery } from '@/lib/client/queries/stats';
import { isTimeRange, type TimeRange } from '@/lib/client/queries/time-range';
import type { Stats } from '@/lib/contract/schemas/stats';
import { BreakdownChart } from '../charts/breakdown-chart';
import { LatencyChart } from '../charts/latency-chart';
import { QueueDepthChart } from '../charts/queue-depth-chart';
import { ThroughputChart } from '../charts/throughput-chart';
import { AppSelect } from '../filters/app-select';
import { LiveStatus } from '../filters/live-status';
import { TimeRangePicker } from '../filters/time-range-picker';
import { useUrlFilters } from '../filters/use-url-filters';
import { formatCount, formatCountAtLeast, formatLatency, formatPercent, formatRate } from '../format';
import { OpenIssuesBanner } from '../issues/open-issues-banner';
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
        subtitle={
          <>
            <LiveStatus updatedAt={stats.dataUpdatedAt} fetching={stats.isFetching} failed={stats.isError} />
            {stats.data?.readReplica && <ReplicaStatus replica={stats.data.readReplica} />}
          </>
        }
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

/** Where the charts and lists read from when a read replica is configured, and how far behind it is. */
function ReplicaStatus({ replica }: { replica: NonNullable<Stats['readReplica']> }) {
  const text = replica.inUse
    ? replica.lagSeconds === 0
      ? 'Read replica: caught up'
      : `Read replica: ${formatLag(replica.lagSeconds)} behind`
    : `Read replica not in use (${replica.problem ?? 'unknown'}): reading the primary`;
  return (
    <span className={`ml-3 text-xs ${replica.inUse ? 'text-zinc-500' : 'text-amber-700'}`} data-testid="read-replica">
      {text}
    </span>
  );
}

function formatLag(seconds: number | null): string {
  if (seconds === null) return 'an unknown time';
  return seconds < 1 ? `${Math.round(seconds * 1000)} ms` : `${seconds.toFixed(1)} s`;
}

function OverviewBody({ stats, appId, range }: { stats: Stats; appId?: string; range: TimeRange }) {
  const { queue, totals } = stats;
  // The explorer is per app: with "all apps" the breakdowns cannot name the app a row came from.
  const explorer = (extra: Record<string, string>) =>
    appId ? `/deliveries?${new URLSearchParams({ appId, range, ...extra }).toString()}` : null;
  const queueCard = (state: 'waiting' | 'retrying' | 'delivering' | 'dead', tone?: 'flight' | 'retry' | 'fail') => {
    const href = explorer({ state });
    // The dead count and the live count each stop at 10,000 rows read (read-queue-depth.ts,
    // read-live-queue.ts): past it the card says "N+", never a lower bound shown as the number.
    const capped = state === 'dead' ? queue.deadCapped : queue.liveCapped;
    const value = formatCountAtLeast(queue[state], capped);
    return (
      <Stat
        label={DELIVERY_STATE_INFO[state].label}
        value={
          href ? (
            <Link href={href} className="hover:underline">
              {value}
            </Link>
          ) : (
            value
          )
        }
        hint={
          capped
            ? state === 'dead'
              ? `${DELIVERY_STATE_INFO[state].description}; more than ${formatCount(queue.dead)}: the count stops there`
              : `${DELIVERY_STATE_INFO[state].description}; at least this many: over 10,000 are unfinished and the count stops there (the queue chart's samples count them all)`
            : DELIVERY_STATE_INFO[state].description
        }
        tone={state === 'dead' && !queue.dead ? undefined : tone}
        testId={`queue-${state}`}
      />
    );
  };
  return (
    <div className="space-y-4">
      <OpenIssuesBanner />
      <section aria-label="Queue now" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {queueCard('waiting')}
        {queueCard('retrying', 'retry')}
        {queueCard('delivering', 'flight')}
        {queueCard('dead', 'fail')}
      </section>
      <WaitingFor queue={queue} />
      <section aria-label="Totals" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
        <Stat
          label="Attempts / s"
          value={formatRate(totals.attemptsPerSecond)}
          hint={rateHint(totals)}
          testId="attempts-per-second"
        />
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
        <Stat label="Latency p50" value={formatLatency(totals.latencyMs.p50)} testId="latency-p50" />
        <Stat label="Latency p95" value={formatLatency(totals.latencyMs.p95)} testId="latency-p95" />
        <Stat label="Latency p99" value={formatLatency(totals.latencyMs.p99)} testId="latency-p99" />
      </section>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card>
          <CardHeader
            title="Throughput"
            subtitle={`Attempts per ${stats.bucketSeconds / 60} min, succeeded and failed`}
          />
          <CardBody className="px-2 py-3">
            <ThroughputChart series={stats.series} bucketSeconds={stats.bucketSeconds} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Latency" subtitle="Percentiles per bucket, log scale" />
          <CardBody className="px-2 py-3">
            <LatencyChart series={stats.series} bucketSeconds={stats.bucketSeconds} />
          </CardBody>
        </Card>
        <Card className="xl:col-span-2">
          <CardHeader
            title="Queue depth"
            subtitle="Sampled once a minute by the workers; the last point is now, the same count as the cards (a card that says N+ keeps the sample)"
          />
          <CardBody className="px-2 py-3">
            <QueueDepthChart series={stats.series} bucketSeconds={stats.bucketSeconds} />
          </CardBody>
        </Card>
      </div>
      {/* min-w-0: a grid item is as wide as its widest table otherwise; the tables scroll instead. */}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="min-w-0">
          <CardHeader
            title="Errors by class"
            subtitle="Failed attempts (every retry counts) per bucket, and each class's share"
          />
          <CardBody className="px-2 py-3">
            <BreakdownChart
              series={stats.series}
              bucketSeconds={stats.bucketSeconds}
              field="errorClasses"
              keys={stats.errorClasses.map((row) => row.errorClass)}
              testId="errors-chart"
            />
          </CardBody>
          {stats.errorClasses.length === 0 ? (
            <Empty title="No failed attempts in this range" />
          ) : (
            <ShareTable
              testId="error-classes"
              heading="Error class"
              rows={stats.errorClasses.map((row) => ({
                key: row.errorClass,
                label: <ErrorClass value={row.errorClass} />,
                count: row.count,
                share: row.share,
                href: explorer({ errorClass: row.errorClass }),
                linkTitle: `The deliveries made in this range whose latest attempt failed with ${row.errorClass}`,
              }))}
            />
          )}
        </Card>
        <Card className="min-w-0">
          <CardHeader
            title="Responses by status code"
            subtitle="Attempts that got a response (every retry counts), per bucket and share"
          />
          <CardBody className="px-2 py-3">
            <BreakdownChart
              series={stats.series}
              bucketSeconds={stats.bucketSeconds}
              field="statusCodes"
              keys={stats.statusCodes.map((row) => String(row.statusCode))}
              testId="status-codes-chart"
            />
          </CardBody>
          {stats.statusCodes.length === 0 ? (
            <Empty title="No responses in this range" />
          ) : (
            <ShareTable
              testId="status-codes"
              heading="Status"
              rows={stats.statusCodes.map((row) => ({
                key: String(row.statusCode),
                label: <StatusCode code={row.statusCode} />,
                count: row.count,
                share: row.share,
                href: explorer({ statusCode: String(row.statusCode) }),
                linkTitle: `The deliveries made in this range whose latest attempt got ${row.statusCode}`,
              }))}
            />
          )}
        </Card>
      </div>
      {!appId && (stats.errorClasses.length > 0 || stats.statusCodes.length > 0) ? (
        <p className="text-xs text-zinc-500">
          Choose an app above to open a class or status in the deliveries explorer.
        </p>
      ) : null}
      <Card>
        <CardHeader title="Worst endpoints" subtitle="Highest share of failed attempts in this range" />
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

/** Each row's attempts and share of the total, with a bar for the share, and a link to the deliveries
 * explorer filtered to it. The two count different things, and say so: the table counts attempts (a
 * delivery that got 429 three times counts three), the explorer lists deliveries by their latest
 * attempt (that delivery once, and only while 429 is its latest result). */
function ShareTable({
  testId,
  heading,
  rows,
}: {
  testId: string;
  heading: string;
  rows: { key: string; label: ReactNode; count: number; share: number; href: string | null; linkTitle: string }[];
}) {
  const linked = rows.some((row) => row.href);
  return (
    <>
      <Table data-testid={testId}>
        <thead>
          <tr>
            <Th>{heading}</Th>
            <Th className="text-right">Attempts</Th>
            <Th className="w-1/3">Share</Th>
            {linked ? <Th className="text-right">Deliveries</Th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <Tr key={row.key}>
              <Td>{row.label}</Td>
              <Td className="tabular text-right">{formatCount(row.count)}</Td>
              <Td>
                <div className="flex items-center gap-2">
                  <div className="h-1.5 flex-1 rounded bg-zinc-100">
                    <div className="h-1.5 rounded bg-zinc-400" style={{ width: `${(row.share * 100).toFixed(1)}%` }} />
                  </div>
                  <span className="tabular w-12 text-right text-xs" data-testid="share">
                    {formatPercent(row.share)}
                  </span>
                </div>
              </Td>
              {linked ? (
                <Td className="text-right text-xs">
                  {row.href ? (
                    <Link href={row.href} className="text-zinc-700 hover:underline" title={row.linkTitle}>
                      latest is {row.key} →
                    </Link>
                  ) : null}
                </Td>
              ) : null}
            </Tr>
          ))}
        </tbody>
      </Table>
      {linked ? (
        <p className="px-4 py-2 text-xs text-zinc-500" data-testid={`${testId}-counting`}>
          Attempts count every try, retries included. The links list deliveries by their latest attempt: a delivery that
          failed so three times and then succeeded is three attempts here and not in the list.
        </p>
      ) : null}
    </>
  );
}

/** The rate card's hint: what the rate is over, and the last complete minute's rate. */
function rateHint(totals: Stats['totals']): string {
  const parts: string[] = ['retries count'];
  if (totals.rateSpan) parts.push(`over the ${formatSpan(totals.rateSpan.seconds)} with attempts`);
  if (totals.lastMinute) parts.push(`last minute ${formatRate(totals.lastMinute.attemptsPerSecond)}/s`);
  return parts.join(' · ');
}

function formatSpan(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

/** The waiting and retrying deliveries by what they wait for: a worker, or something a worker cannot
 * change (an open circuit, a disabled endpoint, a retry's backoff). */
function WaitingFor({ queue }: { queue: Stats['queue'] }) {
  const { waitingFor } = queue;
  const parts = [
    { key: 'worker', label: 'Due now, for a worker', value: waitingFor.worker },
    { key: 'circuit', label: 'Held by an open circuit', value: waitingFor.circuit },
    { key: 'endpoint-enabled', label: 'Held by a disabled endpoint', value: waitingFor.endpointEnabled },
    { key: 'retry-time', label: 'Waiting for their retry time', value: waitingFor.retryTime },
  ];
  return (
    <section
      aria-label="What the waiting and retrying deliveries wait for"
      className="flex flex-wrap items-baseline gap-x-5 gap-y-1 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-xs text-zinc-600"
    >
      <span className="font-medium text-zinc-500">Waiting and retrying, by what they wait for:</span>
      {parts.map((part) => (
        <span key={part.key}>
          {part.label}{' '}
          <span className="tabular font-semibold text-zinc-900" data-testid={`waiting-for-${part.key}`}>
            {formatCountAtLeast(part.value, queue.liveCapped)}
          </span>
        </span>
      ))}
    </section>
  );
}
