'use client';
import Link from 'next/link';
import type { Delivery } from '@/lib/contract/schemas/deliveries';
import { formatRelative, formatTime } from '../format';
import { DeliveryStateBadge, ErrorClass, StatusCode } from '../shared/state-badge';
import { Table, Td, Th, Tr } from '../ui/table';

export const portalDeliveryHref = (deliveryId: string) => `/portal/deliveries/${encodeURIComponent(deliveryId)}`;

export function PortalDeliveriesTable({
  deliveries,
  showEndpoint = true,
}: {
  deliveries: Delivery[];
  showEndpoint?: boolean;
}) {
  return (
    <Table data-testid="portal-deliveries-table">
      <thead>
        <tr>
          <Th>Event</Th>
          {showEndpoint ? <Th className="max-sm:hidden">Endpoint</Th> : null}
          <Th>State</Th>
          <Th className="text-right max-sm:hidden">Tries</Th>
          <Th className="max-sm:hidden">Last result</Th>
          <Th className="text-right">Created</Th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <Tr key={delivery.id} data-testid="portal-delivery-row">
            <Td>
              <Link
                href={portalDeliveryHref(delivery.id)}
                className="break-all font-mono text-xs font-medium text-zinc-900 hover:underline"
              >
                {delivery.eventType}
              </Link>
              <div className="font-mono text-[11px] text-zinc-400 max-sm:hidden">{delivery.id}</div>
            </Td>
            {showEndpoint ? (
              <Td className="max-w-[16rem] break-all font-mono text-xs text-zinc-600 max-sm:hidden">
                {delivery.endpointUrl}
              </Td>
            ) : null}
            <Td>
              <DeliveryStateBadge state={delivery.state} />
            </Td>
            <Td className="tabular text-right max-sm:hidden">{delivery.attemptCount}</Td>
            <Td className="max-sm:hidden">
              <StatusCode code={delivery.lastStatusCode} /> <ErrorClass value={delivery.lastErrorClass} />
            </Td>
            <Td className="whitespace-nowrap text-right text-xs text-zinc-500" title={formatTime(delivery.createdAt)}>
              {formatRelative(delivery.createdAt)}
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
