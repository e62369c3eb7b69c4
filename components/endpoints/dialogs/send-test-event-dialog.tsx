'use client';
import { keepPreviousData, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { sendTestEvent } from '@/lib/client/queries/endpoints';
import { liveEventTypePagesQuery } from '@/lib/client/queries/event-types';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Field, Input } from '../../ui/field';
import { InlineError } from '../../ui/states';
import type { EndpointDialogProps } from './endpoint-dialog-props';

/** The event type is typed, with the app's live types containing what is typed offered (100 at most):
 * a list of every type stopped at the first 250 and left the rest unsendable. Empty: the default test event. */
export function SendTestEventDialog({ endpoint, onClose, onDone }: EndpointDialogProps) {
  const [eventType, setEventType] = useState('');
  const typed = useDeferredValue(eventType.trim());
  const suggestions = useInfiniteQuery({
    ...liveEventTypePagesQuery(endpoint.appId, typed),
    placeholderData: keepPreviousData,
  });
  const suggestionsId = useId();
  const send = useMutation({
    mutationFn: () => sendTestEvent(endpoint.appId, endpoint.id, eventType.trim() || undefined),
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
      <Field label="Event type" hint="Empty: the default test event. Delivered only to this endpoint.">
        <Input
          list={suggestionsId}
          placeholder="Default test event"
          autoComplete="off"
          value={eventType}
          onChange={(e) => setEventType(e.target.value)}
        />
      </Field>
      <datalist id={suggestionsId} data-testid="test-event-types">
        {suggestions.data?.pages[0]?.data.map((type) => (
          <option key={type.id} value={type.name} />
        ))}
      </datalist>
      {send.data ? (
        <p role="status" className="text-sm text-green-700">
          Sent message <span className="font-mono">{send.data.id}</span>; its delivery appears below.
        </p>
      ) : null}
      <InlineError error={send.error} />
    </Dialog>
  );
}
