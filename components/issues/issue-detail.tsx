'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { issueQuery } from '@/lib/client/queries/operations';
import { formatCount, formatRelative, formatTime } from '../format';
import { ErrorClass } from '../shared/state-badge';
import { Card, CardBody, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Stat } from '../ui/stat';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { IssueActions } from './issue-actions';
import { IssueStatusBadge } from './issue-status-badge';

export function IssueDetail({ issueId }: { issueId: string }) {
  const issue = useQuery(issueQuery(issueId));
  if (issue.isPending) return <Loading label="Loading issue…" />;
  if (issue.isError) return <ErrorState error={issue.error} retry={() => void issue.refetch()} />;
  const data = issue.data;
  const endpointHref = data.endpointId ? `/apps/${data.appId}/endpoints/${data.endpointId}` : null;
  const deliveriesHref = data.endpointId
    ? `/deliveries?${new URLSearchParams({ appId: data.appId, endpointId: data.endpointId, state: 'dead' }).toString()}`
    : null;
  return (
    <div className="space-y-4">
      <PageHeader
        title={data.title}
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <IssueStatusBadge status={data.status} />
            {data.errorClass !== 'alert' ? <ErrorClass value={data.errorClass} /> : <span>alert rule</span>}
            {data.reopenedCount > 0 ? <span>reopened {countText(data.reopenedCount)}</span> : null}
          </span>
        }
        actions={<IssueActions issue={data} size="md" />}
      />
      <section aria-label="Summary" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="First seen" value={<span className="text-sm">{formatTime(data.firstSeenAt)}</span>} />
        <Stat label="Last seen" value={<span className="text-sm">{formatRelative(data.lastSeenAt)}</span>} />
        <Stat label="Events" value={formatCount(data.eventCount)} testId="issue-event-count" />
        <Stat label="Dead deliveries" value={formatCount(data.affectedDeliveries)} testId="issue-affected" />
      </section>
      <Card>
        <CardHeader title="Where" />
        <CardBody className="space-y-1 text-sm">
          {endpointHref ? (
            <div>
              Endpoint{' '}
              <Link href={endpointHref} className="font-mono text-xs hover:underline">
                {data.endpointUrl ?? data.endpointId}
              </Link>
            </div>
          ) : null}
          {data.alertRuleId ? (
            <div>
              Alert rule <span className="font-mono text-xs">{data.alertRuleId}</span> of app{' '}
              <Link href={`/apps/${data.appId}`} className="hover:underline">
                {data.appId}
              </Link>
            </div>
          ) : null}
          {deliveriesHref ? (
            <div>
              <Link href={deliveriesHref} className="text-blue-700 hover:underline">
                All dead deliveries of this endpoint
              </Link>
            </div>
          ) : null}
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Affected deliveries"
          subtitle="The most recent 100 dead deliveries counted into this issue"
        />
        {data.deliveryIds.length === 0 ? (
          <Empty title="No dead deliveries counted yet" />
        ) : (
          <ul className="grid gap-x-4 px-4 py-3 font-mono text-xs sm:grid-cols-2" data-testid="issue-deliveries">
            {data.deliveryIds.map((deliveryId) => (
              <li key={deliveryId} className="truncate">
                <Link href={`/apps/${data.appId}/deliveries/${deliveryId}`} className="text-blue-700 hover:underline">
                  {deliveryId}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <CardHeader title="Events" subtitle="Operational events that opened, touched or resolved it" />
        <div className="overflow-x-auto">
          <Table data-testid="issue-events">
            <thead>
              <tr>
                <Th className="hidden sm:table-cell">When</Th>
                <Th>Event</Th>
                <Th>Details</Th>
              </tr>
            </thead>
            <tbody>
              {data.events.map((event) => (
                <Tr key={event.id}>
                  <Td className="hidden whitespace-nowrap text-xs text-zinc-500 sm:table-cell">
                    {formatTime(event.createdAt)}
                  </Td>
                  <Td className="font-mono text-xs">{event.type}</Td>
                  <Td className="max-w-md text-xs text-zinc-600">{summarize(event.data)}</Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        </div>
      </Card>
    </div>
  );
}

function countText(count: number) {
  return count === 1 ? 'once' : `${count} times`;
}

function summarize(data: Record<string, unknown>): string {
  const keys = ['reason', 'condition', 'count', 'consecutive_failures', 'last_error_class', 'error_class', 'value'];
  return keys
    .filter((key) => data[key] !== undefined && data[key] !== null)
    .map((key) => `${key.replaceAll('_', ' ')}: ${String(data[key])}`)
    .join(' · ');
}
