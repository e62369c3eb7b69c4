'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { cancelDelivery, deliveryKeys, deliveryQuery, replayDelivery } from '@/lib/client/queries/deliveries';
import { statsKeys } from '@/lib/client/queries/stats';
import { LiveStatus } from '../filters/live-status';
import { formatMs, formatRelative, formatTime } from '../format';
import { DeliveryStateBadge, ErrorClass, StatusCode } from '../shared/state-badge';
import { canChange, useViewer, viewerPaths } from '../shared/viewer';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { TextBlock } from '../ui/text-block';
import { AttemptCard } from './attempt-card';
import { AttemptsTimeline } from './attempts-timeline';
import { ReplayButton } from './replay-button';
import { useCan } from '../auth/member-context';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3 py-1 text-sm">
      <dt className="w-32 shrink-0 text-zinc-500">{label}</dt>
      <dd className="min-w-0 break-all">{children}</dd>
    </div>
  );
}

/** A delivery's page, for the operator (every action) and in the customer portal (replay only, and none
 * for a read-only session: the portal's API offers no cancel). */
export function DeliveryDetail({ appId, deliveryId }: { appId: string; deliveryId: string }) {
  const viewer = useViewer();
  const paths = viewerPaths(viewer, appId);
  const operator = viewer.kind === 'operator';
  const delivery = useQuery(deliveryQuery(appId, deliveryId));
  const queryClient = useQueryClient();
  const invalidate = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: deliveryKeys.forApp(appId) }),
      queryClient.invalidateQueries({ queryKey: statsKeys.all }),
    ]);
  const replay = useMutation({ mutationFn: () => replayDelivery(appId, deliveryId), onSuccess: invalidate });
  const canReplay = useCan('deliveries.replay');
  const cancel = useMutation({ mutationFn: () => cancelDelivery(appId, deliveryId), onSuccess: invalidate });

  if (delivery.isPending) return <Loading label="Loading delivery…" />;
  if (delivery.isError) return <ErrorState error={delivery.error} retry={() => void delivery.refetch()} />;
  const d = delivery.data;
  const attempts = [...d.attempts].sort((a, b) => b.attemptNumber - a.attemptNumber);
  return (
    <div className="space-y-4">
      {operator ? null : (
        <div className="text-sm">
          <Link href={paths.deliveries()} className="text-zinc-500 hover:underline">
            ← Deliveries
          </Link>
        </div>
      )}
      <PageHeader
        title={<span className="whitespace-normal break-all font-mono">{d.id}</span>}
        subtitle={<LiveStatus updatedAt={delivery.dataUpdatedAt} fetching={delivery.isFetching} />}
        actions={
          <>
            {canChange(viewer) && canReplay ? (
              <ReplayButton state={d.state} pending={replay.isPending} onReplay={() => replay.mutate()} />
            ) : null}
            {operator && canReplay ? (
              <Button
                disabled={cancel.isPending || !(d.state === 'waiting' || d.state === 'retrying')}
                onClick={() => cancel.mutate()}
              >
                Cancel
              </Button>
            ) : null}
          </>
        }
      />
      <InlineError error={replay.error ?? cancel.error} />
      {replay.isSuccess ? (
        <p role="status" className="text-sm text-green-700">
          Replayed: the delivery is due now and is sent again within seconds.
        </p>
      ) : null}
      {d.wait ? (
        <p
          data-testid="delivery-wait"
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {d.wait.message.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, (iso) => `${formatTime(iso)} (${formatRelative(iso)})`)}
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="px-4 py-3">
          <dl>
            <Row label="State">
              <span data-testid="delivery-state">
                <DeliveryStateBadge state={d.state} />
              </span>
            </Row>
            <Row label="Endpoint">
              <Link className="font-mono text-xs hover:underline" href={paths.endpoint(d.endpointId)}>
                {d.endpointUrl}
              </Link>
            </Row>
            <Row label="Event type">
              <span className="font-mono text-xs">{d.eventType}</span>
            </Row>
            <Row label={paths.message ? 'Message' : 'Webhook id'}>
              {paths.message ? (
                <Link className="font-mono text-xs hover:underline" href={paths.message(d.messageId)}>
                  {d.messageId}
                </Link>
              ) : (
                <span className="font-mono text-xs">{d.messageId}</span>
              )}
            </Row>
            <Row label="Attempts">{d.attemptCount}</Row>
            <Row label="Last status">
              <StatusCode code={d.lastStatusCode} /> <ErrorClass value={d.lastErrorClass} />
            </Row>
            <Row label="Last duration">{formatMs(d.lastDurationMs)}</Row>
            <Row label="Created">{formatTime(d.createdAt)}</Row>
            <Row label="Next attempt">
              {d.wait?.until ? `${formatTime(d.wait.until)} (${formatRelative(d.wait.until)})` : '—'}
            </Row>
          </dl>
        </Card>
        <Card>
          <CardHeader title="Payload" subtitle="The message body signed and sent in every attempt" />
          <div className="p-3">
            <TextBlock label="Payload" text={JSON.stringify(d.message.payload, null, 2)} />
          </div>
        </Card>
      </div>
      <section className="space-y-3" aria-label="Attempts">
        <h2 className="text-sm font-semibold">Attempts, newest first</h2>
        <AttemptsTimeline attempts={d.attempts} nextAttemptAt={d.wait?.until ?? null} />
        {attempts.length === 0 ? (
          <Card>
            {d.state === 'delivering' ? (
              // A first attempt in flight: its row, and this log, are written with its outcome.
              <Empty title="Being sent now">
                Its first attempt is in flight; the outcome shows here once the endpoint answers.
              </Empty>
            ) : (
              <Empty title="Not attempted yet">It is sent within a few seconds.</Empty>
            )}
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
