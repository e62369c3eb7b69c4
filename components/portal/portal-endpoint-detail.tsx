'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { deliveriesQuery } from '@/lib/client/queries/deliveries';
import { endpointQuery } from '@/lib/client/queries/endpoints';
import { EndpointActions } from '../endpoints/endpoint-actions';
import { EndpointStatusBadges } from '../endpoints/endpoint-health-cell';
import { formatCount, formatPercent, formatRelative } from '../format';
import { Card, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Stat } from '../ui/stat';
import { Empty, ErrorState, Loading } from '../ui/states';
import { PortalDeliveriesTable } from './portal-deliveries-table';
import { usePortalSession } from './portal-session';

export function PortalEndpointDetail({ endpointId }: { endpointId: string }) {
  const { appId, readOnly } = usePortalSession();
  const endpoint = useQuery(endpointQuery(appId, endpointId));
  const deliveries = useInfiniteQuery(deliveriesQuery({ appId, endpointId }, 20));
  if (endpoint.isPending) return <Loading label="Loading endpoint…" />;
  if (endpoint.isError) return <ErrorState error={endpoint.error} retry={() => void endpoint.refetch()} />;
  const e = endpoint.data;
  const recent = deliveries.data?.pages[0]?.data ?? [];
  return (
    <div className="space-y-4">
      <div className="text-sm">
        <Link href="/portal" className="text-zinc-500 hover:underline">
          ← Endpoints
        </Link>
      </div>
      <PageHeader
        title={
          <span className="whitespace-normal break-all font-mono text-base" data-testid="portal-endpoint-url">
            {e.url}
          </span>
        }
        subtitle={
          <span className="flex flex-wrap items-center gap-2">
            <EndpointStatusBadges endpoint={e} />
            {e.description ? <span>{e.description}</span> : null}
          </span>
        }
      />
      {!e.enabled ? (
        <div role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Disabled {e.disabledAt ? formatRelative(e.disabledAt) : ''}
          {e.disabledReason ? `: ${e.disabledReason}` : ''}. Webhooks wait until it is enabled again.
        </div>
      ) : null}
      {/* The same actions as the operator's dashboard, through the portal's session (lib/client/api-client.ts). */}
      {readOnly ? null : <EndpointActions endpoint={e} />}
      <section aria-label="Health" className="grid grid-cols-2 gap-2 md:grid-cols-4">
        <Stat label="Success 24 h" value={formatPercent(e.health?.successRate24h)} />
        <Stat label="Attempts 24 h" value={formatCount(e.health?.attempts24h)} />
        <Stat label="Queued" value={formatCount(e.health?.pending)} />
        <Stat label="Last success" value={<span className="text-sm">{formatRelative(e.health?.lastSuccessAt)}</span>} />
      </section>
      <Card>
        <CardHeader
          title="Recent deliveries"
          actions={
            <Link
              className="text-sm text-zinc-600 hover:underline"
              href={`/portal/deliveries?endpointId=${encodeURIComponent(endpointId)}`}
            >
              All deliveries
            </Link>
          }
        />
        {deliveries.isPending ? (
          <Loading />
        ) : deliveries.isError ? (
          <ErrorState error={deliveries.error} />
        ) : recent.length === 0 ? (
          <Empty title="No deliveries yet">Send a test event to see one here.</Empty>
        ) : (
          <PortalDeliveriesTable deliveries={recent} showEndpoint={false} />
        )}
      </Card>
    </div>
  );
}
