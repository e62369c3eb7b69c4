'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deliveryKeys } from '@/lib/client/queries/deliveries';
import { messageKeys, messageQuery, replayMessage } from '@/lib/client/queries/messages';
import { DeliveriesTable } from '../deliveries/deliveries-table';
import { ReplaySuccessDialog } from '../deliveries/replay-success-dialog';
import { countOf, formatTime } from '../format';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { TextBlock } from '../ui/text-block';
import { useCan } from '../auth/member-context';

export function MessageDetail({ appId, messageId }: { appId: string; messageId: string }) {
  const canReplay = useCan('deliveries.replay');
  const message = useQuery(messageQuery(appId, messageId));
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const replay = useMutation({
    mutationFn: () => replayMessage(appId, messageId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.forApp(appId) }),
        queryClient.invalidateQueries({ queryKey: deliveryKeys.forApp(appId) }),
      ]),
  });
  if (message.isPending) return <Loading label="Loading message…" />;
  if (message.isError) return <ErrorState error={message.error} retry={() => void message.refetch()} />;
  const m = message.data;
  // What the replay will reset (every delivery but one a worker holds), and which of those already succeeded.
  const replayable = m.deliveries.filter((delivery) => delivery.state !== 'delivering');
  const succeeded = replayable.filter((delivery) => delivery.state === 'succeeded').length;
  return (
    <div className="space-y-4">
      <PageHeader
        title={<span className="whitespace-normal break-all font-mono">{m.id}</span>}
        subtitle={`${m.eventType} · ${formatTime(m.createdAt)}${m.idempotencyKey ? ` · idempotency key ${m.idempotencyKey}` : ''}`}
        actions={
          canReplay ? (
            <Button
              variant="primary"
              disabled={replay.isPending}
              onClick={() => (succeeded > 0 ? setAsking(true) : replay.mutate())}
            >
              Replay to every endpoint
            </Button>
          ) : null
        }
      />
      <ReplaySuccessDialog
        open={asking}
        succeeded={succeeded}
        total={replayable.length}
        onClose={() => setAsking(false)}
        onConfirm={() => replay.mutate()}
      />
      <InlineError error={replay.error} />
      {replay.data ? (
        <p role="status" className="text-sm text-green-700">
          Replayed {countOf(replay.data.replayed, 'delivery', 'deliveries')}.
        </p>
      ) : null}
      <Card>
        <CardHeader title="Payload" />
        <div className="p-3">
          <TextBlock label="Payload" text={JSON.stringify(m.payload, null, 2)} />
        </div>
      </Card>
      <Card>
        <CardHeader title="Deliveries" />
        {m.deliveries.length === 0 ? (
          <Empty title="No endpoint subscribed to this event type when it was sent" />
        ) : (
          <DeliveriesTable deliveries={m.deliveries} />
        )}
      </Card>
    </div>
  );
}
