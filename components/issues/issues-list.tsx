'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { appsQuery } from '@/lib/client/queries/apps';
import { issueCountsQuery, issuePagesQuery, type IssueFilter } from '@/lib/client/queries/operations';
import { formatCount, formatRelative, formatTime } from '../format';
import { ErrorClass } from '../shared/state-badge';
import { Card } from '../ui/card';
import { cn } from '../ui/cn';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { LoadMore } from '../ui/load-more';
import { Table, Td, Th, Tr } from '../ui/table';
import { useHydrated } from '../ui/use-hydrated';
import { IssueActions } from './issue-actions';
import { IssueStatusBadge } from './issue-status-badge';

const FILTERS: { value: IssueFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'all', label: 'All' },
];

function isFilter(value: string | null): value is IssueFilter {
  return FILTERS.some((filter) => filter.value === value);
}

export function IssuesList() {
  const params = useSearchParams();
  const router = useRouter();
  const status = params.get('status');
  const filter: IssueFilter = isFilter(status) ? status : 'open';
  const issues = useInfiniteQuery(issuePagesQuery(filter));
  // Ordered by when each was last seen, which moves while pages load: an issue seen again between two
  // pages comes back on the next one, and is listed once.
  const rows = [
    ...new Map((issues.data?.pages ?? []).flatMap((page) => page.data).map((issue) => [issue.id, issue])).values(),
  ];
  const counts = useQuery(issueCountsQuery());
  // The nav's badge reads the counts too and may have them before this hydrates (use-hydrated.ts).
  const hydrated = useHydrated();
  const apps = useQuery(appsQuery());
  const appName = (appId: string) => apps.data?.data.find((app) => app.id === appId)?.name ?? appId;
  return (
    <div>
      <PageHeader
        title="Issues"
        subtitle="One per endpoint and error class, or per alert rule; a resolved issue reopens when it happens again"
      />
      <div role="tablist" aria-label="Status" className="mb-3 flex flex-wrap gap-1">
        {FILTERS.map((item) => {
          const count =
            item.value === 'all' || !hydrated
              ? undefined
              : counts.data?.[item.value as 'open' | 'acknowledged' | 'resolved'];
          return (
            <button
              key={item.value}
              role="tab"
              type="button"
              aria-selected={filter === item.value}
              onClick={() => router.replace(`/issues?status=${item.value}`)}
              className={cn(
                'rounded-md border px-3 py-1 text-sm',
                filter === item.value
                  ? 'border-zinc-900 bg-zinc-900 text-white'
                  : 'border-zinc-200 bg-white text-zinc-700 hover:bg-zinc-50',
              )}
            >
              {item.label}
              {count !== undefined ? <span className="tabular ml-1.5 opacity-70">{formatCount(count)}</span> : null}
            </button>
          );
        })}
      </div>
      <Card>
        {issues.isPending ? (
          <Loading label="Loading issues…" />
        ) : issues.isError ? (
          <ErrorState error={issues.error} retry={() => void issues.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title={filter === 'open' ? 'No open issues' : 'No issues here'}>
            Issues open when an endpoint starts failing, its circuit opens, it is disabled, deliveries go dead or an
            alert rule fires.
          </Empty>
        ) : (
          <div className="overflow-x-auto">
            <Table data-testid="issues-table">
              <thead>
                <tr>
                  <Th>Issue</Th>
                  <Th>Status</Th>
                  <Th className="hidden text-right sm:table-cell">Events</Th>
                  <Th className="text-right">Dead</Th>
                  <Th className="hidden md:table-cell">First seen</Th>
                  <Th className="hidden sm:table-cell">Last seen</Th>
                  <Th />
                </tr>
              </thead>
              <tbody>
                {rows.map((issue) => (
                  <Tr key={issue.id} data-testid="issue-row">
                    <Td className="max-w-md">
                      <Link href={`/issues/${issue.id}`} className="font-medium hover:underline">
                        {issue.title}
                      </Link>
                      <div className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-zinc-500">
                        <span>{appName(issue.appId)}</span>
                        {issue.errorClass !== 'alert' ? <ErrorClass value={issue.errorClass} /> : null}
                      </div>
                      {issue.endpointUrl ? (
                        <div
                          data-testid="issue-endpoint-url"
                          className="mt-0.5 truncate font-mono text-xs text-zinc-600"
                          title={issue.endpointUrl}
                        >
                          {issue.endpointUrl}
                        </div>
                      ) : null}
                    </Td>
                    <Td>
                      <IssueStatusBadge status={issue.status} />
                      {issue.mutedUntil ? (
                        <div className="mt-0.5 text-xs text-zinc-500" data-testid="issue-muted">
                          muted until {formatTime(issue.mutedUntil)}
                        </div>
                      ) : null}
                    </Td>
                    <Td className="tabular hidden text-right sm:table-cell">{formatCount(issue.eventCount)}</Td>
                    <Td className="tabular text-right">{formatCount(issue.affectedDeliveries)}</Td>
                    <Td className="hidden text-xs text-zinc-500 md:table-cell">{formatTime(issue.firstSeenAt)}</Td>
                    <Td className="hidden text-xs text-zinc-500 sm:table-cell">{formatRelative(issue.lastSeenAt)}</Td>
                    <Td>
                      <IssueActions issue={issue} />
                    </Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          </div>
        )}
        <LoadMore pages={issues} testId="issues-load-more" />
      </Card>
    </div>
  );
}
