'use client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { disableEndpoint } from '@/lib/client/queries/endpoints';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Field, Input } from '../../ui/field';
import { InlineError } from '../../ui/states';
import type { EndpointDialogProps } from './endpoint-dialog-props';

export function DisableEndpointDialog({ endpoint, onClose, onDone }: EndpointDialogProps) {
  const [reason, setReason] = useState('');
  const disable = useMutation({
    mutationFn: () => disableEndpoint(endpoint.appId, endpoint.id, reason.trim() || undefined),
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title="Disable endpoint"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={disable.isPending} onClick={() => disable.mutate()}>
            Disable
          </Button>
        </>
      }
    >
      <p className="text-sm text-zinc-600">
        No request is sent while the endpoint is disabled. New messages still create deliveries; they wait, without
        spending attempts, until it is enabled again.
      </p>
      <Field label="Reason (shown on the endpoint)">
        <Input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Receiver under maintenance" />
      </Field>
      <InlineError error={disable.error} />
    </Dialog>
  );
}
