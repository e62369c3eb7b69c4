'use client';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import {
  DELIVERY_STATE_INFO,
  DELIVERY_STATES,
  type DeliveryStateFilter,
} from '@/lib/domain/deliveries/delivery-states';
import { deliveriesQuery } from '@/lib/client/queries/deliveries';
import { endpointsQuery } from '@/lib/client/queries/endpoints';
import { EndpointSelect } from '../filters/endpoint-select';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Select } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { PortalDeliveriesTable } from './portal-deliveries-table';
import { usePortalSession } from './portal-session';

const STATE_FILTERS: DeliveryStateFilter[] = ['failed', ...DELIVERY_STATES];

export function PortalDeliveries() {
  const { appId } = usePortalSession();
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const endpointId = search.get('endpointId') || undefined;
  const stateParam = search.get('state');
  const state = STATE_FILTERS.includes(stateParam as DeliveryStateFilter)
    ? (stateParam as DeliveryStateFilter)
    : undefined;
  const endpoints = useQuery(endpointsQuery(appId));
  const deliveries = useInfiniteQuery(deliveriesQuery({ appId, endpointId, state }, 50));
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(search.toString());
    if (value) next.set(name, value);
    else next.delete(name);
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname);
  };
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div>
      <PageHeader title="Deliveries" subtitle="Every webhook sent to your endpoints, newest first" />
      <div className="mb-3 grid gap-3 sm:grid-cols-2 md:max-w-2xl">
        <Field label="Endpoint">
          <EndpointSelect
            endpoints={endpoints.data?.data}
            value={endpointId}
            onChange={(value) => setFilter('endpointId', value)}
          />
        </Field>
        <Field label="State">
          <Select value={state ?? ''} onChange={(event) => setFilter('state', event.target.value)}>
            <option value="">Any state</option>
            {STATE_FILTERS.map((value) => (
              <option key={value} value={value}>
                {value === 'failed'
                  ? 'Failed (retrying or dead)'
                  : DELIVERY_STATE_INFO[value as keyof typeof DELIVERY_STATE_INFO].label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Card>
        {deliveries.isPending ? (
          <Loading label="Loading deliveries…" />
        ) : deliveries.isError ? (
          <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title="No deliveries">Nothing matches these filters yet.</Empty>
        ) : (
          <PortalDeliveriesTable deliveries={rows} />
        )}
      </Card>
      {deliveries.hasNextPage ? (
        <div className="mt-3 flex justify-center">
          <Button disabled={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
            {deliveries.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
