'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { sendTestEvent } from '@/lib/client/queries/endpoints';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Field, Select } from '../../ui/field';
import { InlineError } from '../../ui/states';
import type { EndpointDialogProps } from './endpoint-dialog-props';

export function SendTestEventDialog({ endpoint, onClose, onDone }: EndpointDialogProps) {
  const eventTypes = useQuery(eventTypesQuery(endpoint.appId));
  const [eventType, setEventType] = useState('');
  const send = useMutation({
    mutationFn: () => sendTestEvent(endpoint.appId, endpoint.id, eventType || undefined),
    onSuccess: onDone,
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title="Send a test event"
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button variant="primary" disabled={send.isPending} onClick={() => send.mutate()}>
            Send
          </Button>
        </>
      }
    >
      <Field label="Event type" hint="Delivered only to this endpoint.">
        <Select value={eventType} onChange={(e) => setEventType(e.target.value)}>
          <option value="">Default test event</option>
          {eventTypes.data?.data
            .filter((type) => !type.archived)
            .map((type) => (
              <option key={type.id} value={type.name}>
                {type.name}
              </option>
            ))}
        </Select>
      </Field>
      {send.data ? (
        <p role="status" className="text-sm text-green-700">
          Sent message <span className="font-mono">{send.data.id}</span>; its delivery appears below.
        </p>
      ) : null}
      <InlineError error={send.error} />
    </Dialog>
  );
}
