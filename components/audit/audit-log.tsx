'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { auditEventsQuery, type AuditEventFilter } from '@/lib/client/queries/audit-events';
import type { AuditEvent } from '@/lib/contract/schemas/audit-events';
import { AppSelect } from '../filters/app-select';
import { LiveStatus } from '../filters/live-status';
import { TextFilterFields, type TextFilterSpec } from '../filters/text-filter-fields';
import { useUrlFilters } from '../filters/use-url-filters';
import { formatTime } from '../format';
import { Badge } from '../ui/badge';
import { Card } from '../ui/card';
import { LoadMore } from '../ui/load-more';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

const FILTER_NAMES = ['appId', 'action', 'resourceType', 'resourceId', 'actorId'] as const;

const TEXT_FILTERS: readonly TextFilterSpec<(typeof FILTER_NAMES)[number]>[] = [
  { name: 'action', field: 'Action', label: 'Action', placeholder: 'e.g. endpoint.secret_rotated or endpoint.' },
  { name: 'resourceType', field: 'Resource type', label: 'Resource type', placeholder: 'e.g. endpoint' },
  { name: 'resourceId', field: 'Resource id', label: 'Resource id', placeholder: 'ep_…' },
  { name: 'actorId', field: 'Who (user, key or portal session id)', label: 'Actor id', placeholder: 'usr_… / key_…' },
];

function Actor({ actor }: { actor: AuditEvent['actor'] }) {
  const kind = { admin: 'user', api_key: 'API key', portal: 'portal', system: 'system' }[actor.type];
  return (
    <span className="flex flex-col">
      {actor.label ? <span>{actor.label}</span> : <span className="font-mono text-xs">{actor.id ?? 'Hookline'}</span>}
      <span className="text-xs text-zinc-500">
        {kind}
        {actor.label && actor.id ? ` · ${actor.id}` : ''}
      </span>
    </span>
  );
}

/** "url: a → b" per changed field; a creation or deletion lists its fields once. */
function Changes({ changes }: { changes: AuditEvent['changes'] }) {
  const keys = [...new Set([...Object.keys(changes.before ?? {}), ...Object.keys(changes.after ?? {})])];
  if (keys.length === 0) return <span className="text-xs text-zinc-400">—</span>;
  const show = (value: unknown) => (value === undefined ? '∅' : JSON.stringify(value));
  return (
    <ul className="space-y-0.5 font-mono text-xs">
      {keys.map((key) => (
        <li key={key} className="break-all">
          <span className="text-zinc-500">{key}:</span>{' '}
          {changes.before && changes.after
            ? `${show(changes.before[key])} → ${show(changes.after[key])}`
            : show((changes.after ?? changes.before)?.[key])}
        </li>
      ))}
    </ul>
  );
}

export function AuditLog() {
  const [params, setParams] = useUrlFilters(FILTER_NAMES);
  const filter: AuditEventFilter = useMemo(
    () => ({
      appId: params.appId,
      action: params.action,
      resourceType: params.resourceType,
      resourceId: params.resourceId,
      actorId: params.actorId,
    }),
    [params],
  );
  const events = useInfiniteQuery(auditEventsQuery(filter));
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div>
      <PageHeader
        title="Audit log"
        subtitle={<LiveStatus updatedAt={events.dataUpdatedAt} fetching={events.isFetching} failed={events.isError} />}
        actions={<AppSelect allowAll value={params.appId} onChange={(appId) => setParams({ appId })} />}
      />
      <Card className="mb-3 p-3">
        <div className="grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
          <TextFilterFields specs={TEXT_FILTERS} values={params} onCommit={setParams} />
        </div>
      </Card>
      <Card>
        {events.isPending ? (
          <Loading label="Loading the audit log…" />
        ) : events.isError && rows.length === 0 ? (
          <ErrorState error={events.error} retry={() => void events.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title="No changes match">Every change made in the dashboard or through the API appears here.</Empty>
        ) : (
          <>
            <Table>
              <thead>
                <tr>
                  <Th>When</Th>
                  <Th>Who</Th>
                  <Th>Action</Th>
                  <Th>Resource</Th>
                  <Th className="max-md:hidden">Changes</Th>
                  <Th className="max-lg:hidden">From</Th>
                </tr>
              </thead>
              <tbody>
                {rows.map((event) => (
                  <Tr key={event.id} data-testid="audit-row">
                    <Td className="whitespace-nowrap text-xs text-zinc-500">{formatTime(event.createdAt)}</Td>
                    <Td className="max-w-56 break-all text-sm">
                      <Actor actor={event.actor} />
                    </Td>
                    <Td>
                      <Badge tone="neutral">{event.action}</Badge>
                    </Td>
                    <Td className="max-w-56 font-mono text-xs">
                      <span className="text-zinc-500">{event.resourceType}</span>{' '}
                      <button
                        type="button"
                        className="break-all hover:underline"
                        title="Show only this resource"
                        onClick={() => setParams({ resourceId: event.resourceId })}
                      >
                        {event.resourceId}
                      </button>
                    </Td>
                    <Td className="min-w-80 max-w-xl max-md:hidden">
                      <Changes changes={event.changes} />
                    </Td>
                    <Td className="font-mono text-xs text-zinc-500 max-lg:hidden">{event.remoteAddress ?? '—'}</Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
            <LoadMore pages={events} />
          </>
        )}
      </Card>
    </div>
  );
}
