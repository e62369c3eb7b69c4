'use client';
import Link from 'next/link';
import type { Delivery } from '@/lib/contract/schemas/deliveries';
import { formatMs, formatRelative, formatTime } from '../format';
import { DeliveryStateBadge, ErrorClass, StatusCode } from '../shared/state-badge';
import { useViewer, viewerPaths } from '../shared/viewer';
import { Table, Td, Th, Tr } from '../ui/table';

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
  const viewer = useViewer();
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
          <Th className="max-sm:hidden">Event type</Th>
          {showEndpoint ? <Th className="max-sm:hidden">Endpoint</Th> : null}
          <Th>State</Th>
          <Th className="text-right max-sm:hidden">Tries</Th>
          <Th className="max-sm:hidden">Status</Th>
          <Th className="max-sm:hidden">Error</Th>
          <Th className="text-right max-sm:hidden">Time</Th>
          <Th className="max-sm:hidden">Next try</Th>
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
            {/* On a phone this cell carries what the hidden columns would: time and endpoint. */}
            <Td className="sm:whitespace-nowrap">
              <Link
                href={viewerPaths(viewer, delivery.appId).delivery(delivery.id)}
                className="break-all font-mono text-xs text-zinc-900 hover:underline"
              >
                {delivery.id}
              </Link>
              <div className="text-xs text-zinc-500" title={delivery.createdAt} data-testid="delivery-created">
                {formatTime(delivery.createdAt)}
              </div>
              {showEndpoint ? (
                <div
                  className="break-all font-mono text-xs text-zinc-600 sm:hidden"
                  data-testid="delivery-endpoint-phone"
                >
                  {delivery.endpointUrl}
                </div>
              ) : null}
            </Td>
            <Td className="font-mono text-xs max-sm:hidden">{delivery.eventType}</Td>
            {showEndpoint ? (
              // 13rem: with a long URL at 20rem the table was 15 px wider than its card at 1440 px and cut
              // off "Next try"; the full URL is the link's title.
              <Td className="max-w-[13rem] max-sm:hidden">
                <Link
                  href={viewerPaths(viewer, delivery.appId).endpoint(delivery.endpointId)}
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
            <Td className="tabular text-right max-sm:hidden">{delivery.attemptCount}</Td>
            <Td className="max-sm:hidden">
              <StatusCode code={delivery.lastStatusCode} />
            </Td>
            <Td className="max-sm:hidden">
              <ErrorClass value={delivery.lastErrorClass} />
            </Td>
            <Td className="tabular whitespace-nowrap text-right text-xs max-sm:hidden">
              {formatMs(delivery.lastDurationMs)}
            </Td>
            <Td className="whitespace-nowrap text-xs text-zinc-500 max-sm:hidden">
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
