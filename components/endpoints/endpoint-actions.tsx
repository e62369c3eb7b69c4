'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deliveryKeys } from '@/lib/client/queries/deliveries';
import { enableEndpoint, endpointKeys } from '@/lib/client/queries/endpoints';
import { jobKeys } from '@/lib/client/queries/jobs';
import { statsKeys } from '@/lib/client/queries/stats';
import type { Endpoint } from '@/lib/contract/schemas/endpoints';
import { Button } from '../ui/button';
import { InlineError } from '../ui/states';
import { BackfillEndpointDialog } from './dialogs/backfill-endpoint-dialog';
import { DisableEndpointDialog } from './dialogs/disable-endpoint-dialog';
import { EditEndpointDialog } from './dialogs/edit-endpoint-dialog';
import { RecoverEndpointDialog } from './dialogs/recover-endpoint-dialog';
import { RotateSecretDialog } from './dialogs/rotate-secret-dialog';
import { SendTestEventDialog } from './dialogs/send-test-event-dialog';
import { SigningSecretsDialog } from './dialogs/signing-secrets-dialog';

type Panel = 'edit' | 'disable' | 'rotate' | 'secret' | 'test' | 'recover' | 'backfill' | null;

/** The endpoint page's action buttons, each opening its dialog (one at a time); Enable needs none. */
export function EndpointActions({ endpoint }: { endpoint: Endpoint }) {
  const { appId, id } = endpoint;
  const [panel, setPanel] = useState<Panel>(null);
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: endpointKeys.forApp(appId) }),
      queryClient.invalidateQueries({ queryKey: deliveryKeys.forApp(appId) }),
      queryClient.invalidateQueries({ queryKey: statsKeys.all }),
    ]);
  const refreshJobs = () => queryClient.invalidateQueries({ queryKey: jobKeys.forApp(appId) });
  const close = () => setPanel(null);
  const enable = useMutation({ mutationFn: () => enableEndpoint(appId, id), onSuccess: refresh });
  const dialogProps = { endpoint, onClose: close, onDone: refresh };
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => setPanel('edit')}>Edit</Button>
        {endpoint.enabled ? (
          <Button onClick={() => setPanel('disable')}>Disable</Button>
        ) : (
          <Button variant="primary" disabled={enable.isPending} onClick={() => enable.mutate()}>
            Enable
          </Button>
        )}
        <Button onClick={() => setPanel('test')}>Send test event</Button>
        <Button onClick={() => setPanel('recover')}>Recover…</Button>
        <Button onClick={() => setPanel('backfill')}>Backfill…</Button>
        <Button onClick={() => setPanel('secret')}>Show secret</Button>
        <Button onClick={() => setPanel('rotate')}>Rotate secret</Button>
      </div>
      <InlineError error={enable.error} />
      {panel === 'edit' ? <EditEndpointDialog {...dialogProps} /> : null}
      {panel === 'disable' ? <DisableEndpointDialog {...dialogProps} /> : null}
      {panel === 'rotate' ? <RotateSecretDialog {...dialogProps} /> : null}
      {panel === 'secret' ? <SigningSecretsDialog endpoint={endpoint} onClose={close} /> : null}
      {panel === 'test' ? <SendTestEventDialog {...dialogProps} /> : null}
      {panel === 'recover' ? <RecoverEndpointDialog {...dialogProps} onJobStarted={refreshJobs} /> : null}
      {panel === 'backfill' ? <BackfillEndpointDialog {...dialogProps} onJobStarted={refreshJobs} /> : null}
    </>
  );
}
