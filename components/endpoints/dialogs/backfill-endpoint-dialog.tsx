'use client';
import { backfillCountQuery, startBackfill } from '@/lib/client/queries/jobs';
import { countOf } from '../../format';
import type { EndpointJobDialogProps } from './endpoint-dialog-props';
import { SinceJobDialog } from './since-job-dialog';

/** Sends the endpoint the messages since a chosen time (a day ago by default) that it has not received. */
export function BackfillEndpointDialog({ endpoint, ...props }: EndpointJobDialogProps) {
  const types = endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'every event type';
  return (
    <SinceJobDialog
      {...props}
      title="Backfill this endpoint"
      lookbackMs={24 * 60 * 60_000}
      countQuery={(since) => backfillCountQuery(endpoint.appId, endpoint.id, since)}
      startJob={(since) => startBackfill(endpoint.appId, endpoint.id, since)}
      confirm={{ label: 'Send them', variant: 'primary' }}
      count={{
        testId: 'backfill-count',
        counting: 'Counting messages…',
        none: 'Nothing to send: the endpoint has every matching message since then.',
        some: (matched) => `${countOf(matched, 'message', 'messages')} will be sent to this endpoint.`,
      }}
    >
      <p className="text-sm text-zinc-600">
        Every message of this app since the chosen time that this endpoint subscribes to ({types}) and has not received
        is sent to it, oldest first, at the endpoint&apos;s own pace (its max concurrency of {endpoint.maxConcurrency}),
        by a background job you can follow and cancel.
      </p>
    </SinceJobDialog>
  );
}
