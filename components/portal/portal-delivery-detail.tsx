'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { deliveryKeys, deliveryQuery, replayDelivery } from '@/lib/client/queries/deliveries';
import { AttemptCard } from '../deliveries/attempt-card';
import { formatMs, formatRelative, formatTime } from '../format';
import { DeliveryStateBadge, ErrorClass, StatusCode } from '../shared/state-badge';
import { Card, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { TextBlock } from '../ui/text-block';
import { portalEndpointHref } from './portal-endpoints';
import { usePortalSession } from './portal-session';
import { ReplayButton } from '../deliveries/replay-button';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-3 py-1 text-sm">
      <dt className="w-28 shrink-0 text-zinc-500">{label}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </div>
  );
}

export function PortalDeliveryDetail({ deliveryId }: { deliveryId: string }) {
  const { appId, readOnly } = usePortalSession();
  const delivery = useQuery(deliveryQuery(appId, deliveryId));
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => replayDelivery(appId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.forApp(appId) }),
  });
  if (delivery.isPending) return <Loading label="Loading delivery…" />;
  if (delivery.isError) return <ErrorState error={delivery.error} retry={() => void delivery.refetch()} />;
  const d = delivery.data;
  const attempts = [...d.attempts].sort((a, b) => b.attemptNumber - a.attemptNumber);
  return (
    <div className="space-y-4">
      <div className="text-sm">
        <Link href="/portal/deliveries" className="text-zinc-500 hover:underline">
          ← Deliveries
        </Link>
      </div>
      <PageHeader
        title={<span className="font-mono">{d.eventType}</span>}
        subtitle={<span className="font-mono text-xs">{d.id}</span>}
        actions={
          readOnly ? null : <ReplayButton state={d.state} pending={replay.isPending} onReplay={() => replay.mutate()} />
        }
      />
      <InlineError error={replay.error} />
      {replay.isSuccess ? (
        <p role="status" className="text-sm text-green-700">
          Replayed: it is sent again within a few seconds.
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="px-4 py-3">
          <dl>
            <Row label="State">
              <span data-testid="portal-delivery-state">
                <DeliveryStateBadge state={d.state} />
              </span>
            </Row>
            <Row label="Endpoint">
              <Link className="font-mono text-xs hover:underline" href={portalEndpointHref(d.endpointId)}>
                {d.endpointUrl}
              </Link>
            </Row>
            <Row label="Webhook id">
              <span className="font-mono text-xs">{d.messageId}</span>
            </Row>
            <Row label="Attempts">{d.attemptCount}</Row>
            <Row label="Last result">
              <StatusCode code={d.lastStatusCode} /> <ErrorClass value={d.lastErrorClass} />{' '}
              {formatMs(d.lastDurationMs)}
            </Row>
            <Row label="Created">{formatTime(d.createdAt)}</Row>
            <Row label="Next attempt">
              {d.wait?.until ? `${formatTime(d.wait.until)} (${formatRelative(d.wait.until)})` : '—'}
            </Row>
          </dl>
        </Card>
        <Card>
          <CardHeader title="Payload" />
          <div className="p-3">
            <TextBlock label="Payload" text={JSON.stringify(d.message.payload, null, 2)} />
          </div>
        </Card>
      </div>
      <section className="space-y-3" aria-label="Attempts">
        <h2 className="text-sm font-semibold">Attempts, newest first</h2>
        {attempts.length === 0 ? (
          <Card>
            <Empty title="Not attempted yet">It is sent within a few seconds.</Empty>
          </Card>
        ) : (
          attempts.map((attempt, index) => (
            <AttemptCard
              key={attempt.attemptNumber}
              attempt={attempt}
              previous={attempts[index + 1]}
              request={d.request}
            />
          ))
        )}
      </section>
    </div>
  );
}
