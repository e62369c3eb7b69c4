'use client';
import Link from 'next/link';
import type { Delivery } from '@/lib/queries/types';
import { formatMs, formatRelative, formatTime } from '../format';
import { DeliveryStateBadge, ErrorClass, StatusCode } from '../shared/state-badge';
import { Table, Td, Th, Tr } from '../ui/table';

export function deliveryHref(delivery: Pick<Delivery, 'appId' | 'id'>): string {
  return `/apps/${encodeURIComponent(delivery.appId)}/deliveries/${encodeURIComponent(delivery.id)}`;
}

export function DeliveriesTable({
  deliveries,
  selected,
  onToggle,
  onToggleAll,
  showEndpoint = true,
}: {
  deliveries: Delivery[];
  selected?: Set<string>;
  onToggle?: (id: string) => void;
  onToggleAll?: (ids: string[], select: boolean) => void;
  showEndpoint?: boolean;
}) {
  const selectable = Boolean(selected && onToggle);
  const allSelected = selectable && deliveries.length > 0 && deliveries.every((d) => selected!.has(d.id));
  return (
    <Table data-testid="deliveries-table">
      <thead>
        <tr>
          {selectable ? (
            <Th className="w-8">
              <input
                type="checkbox"
                aria-label="Select all shown deliveries"
                checked={allSelected}
                onChange={() =>
                  onToggleAll?.(
                    deliveries.map((d) => d.id),
                    !allSelected,
                  )
                }
              />
            </Th>
          ) : null}
          <Th>Delivery</Th>
          <Th>Event type</Th>
          {showEndpoint ? <Th>Endpoint</Th> : null}
          <Th>State</Th>
          <Th className="text-right">Tries</Th>
          <Th>Status</Th>
          <Th>Error</Th>
          <Th className="text-right">Time</Th>
          <Th>Next try</Th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <Tr key={delivery.id} data-testid="delivery-row" data-delivery-id={delivery.id}>
            {selectable ? (
              <Td>
                <input
                  type="checkbox"
                  aria-label={`Select ${delivery.id}`}
                  checked={selected!.has(delivery.id)}
                  onChange={() => onToggle!(delivery.id)}
                />
              </Td>
            ) : null}
            <Td className="whitespace-nowrap">
              <Link href={deliveryHref(delivery)} className="font-mono text-xs text-zinc-900 hover:underline">
                {delivery.id}
              </Link>
              <div className="text-xs text-zinc-500" title={delivery.createdAt}>
                {formatTime(delivery.createdAt)}
              </div>
            </Td>
            <Td className="font-mono text-xs">{delivery.eventType}</Td>
            {showEndpoint ? (
              <Td className="max-w-xs">
                <Link
                  href={`/apps/${encodeURIComponent(delivery.appId)}/endpoints/${encodeURIComponent(delivery.endpointId)}`}
                  className="block truncate font-mono text-xs text-zinc-700 hover:underline"
                  title={delivery.endpointUrl}
                >
                  {delivery.endpointUrl}
                </Link>
              </Td>
            ) : null}
            <Td>
              <DeliveryStateBadge state={delivery.state} />
            </Td>
            <Td className="tabular text-right">{delivery.attemptCount}</Td>
            <Td>
              <StatusCode code={delivery.lastStatusCode} />
            </Td>
            <Td>
              <ErrorClass value={delivery.lastErrorClass} />
            </Td>
            <Td className="tabular whitespace-nowrap text-right text-xs">{formatMs(delivery.lastDurationMs)}</Td>
            <Td className="whitespace-nowrap text-xs text-zinc-500">
              {(delivery.state === 'waiting' || delivery.state === 'retrying') && delivery.nextAttemptAt
                ? formatRelative(delivery.nextAttemptAt)
                : '—'}
            </Td>
          </Tr>
        ))}
      </tbody>
    </Table>
  );
}
