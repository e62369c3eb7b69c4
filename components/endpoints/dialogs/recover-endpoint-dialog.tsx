'use client';
import { describeStates, FAILED_STATES } from '@/lib/domain/deliveries/delivery-states';
import { recoverCountQuery, recoverEndpoint } from '@/lib/client/queries/endpoints';
import { countOf } from '../../format';
import type { EndpointJobDialogProps } from './endpoint-dialog-props';
import { SinceJobDialog } from './since-job-dialog';

/** Replays the endpoint's failed deliveries since a chosen time, an hour ago by default. */
export function RecoverEndpointDialog({ endpoint, ...props }: EndpointJobDialogProps) {
  return (
    <SinceJobDialog
      {...props}
      title="Recover failed deliveries"
      lookbackMs={60 * 60_000}
      countQuery={(since) => recoverCountQuery(endpoint.appId, endpoint.id, since)}
      startJob={(since) => recoverEndpoint(endpoint.appId, endpoint.id, since)}
      confirm={{ label: 'Replay failed since then', variant: 'danger' }}
      count={{
        testId: 'recover-count',
        counting: 'Counting failed deliveries…',
        none: 'Nothing to replay: no delivery to this endpoint has failed since then.',
        some: (matched) => `${countOf(matched, 'failed delivery', 'failed deliveries')} will be sent again.`,
      }}
    >
      <p className="text-sm text-zinc-600">
        Every failed delivery to this endpoint ({describeStates(FAILED_STATES)}, the same set as the explorer&apos;s
        &ldquo;Replay failed&rdquo;) created since the chosen time is sent again, by a background job you can follow and
        cancel here or on the app&apos;s Jobs page.
      </p>
    </SinceJobDialog>
  );
}
