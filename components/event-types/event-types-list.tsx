'use client';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { createEventType, eventTypeKeys, eventTypePagesQuery, updateEventType } from '@/lib/client/queries/event-types';
import type { EventType } from '@/lib/contract/schemas/event-types';
import { GettingStarted } from '../apps/getting-started';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input, Textarea } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { LoadMore } from '../ui/load-more';
import { Table, Td, Th, Tr } from '../ui/table';
import { useCan } from '../auth/member-context';

export function EventTypesList({ appId }: { appId: string }) {
  const eventTypes = useInfiniteQuery(eventTypePagesQuery(appId));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<EventType | 'new' | null>(null);
  const [showArchived, setShowArchived] = useState(false);
  const canWrite = useCan('integrations.write');
  const refresh = () => queryClient.invalidateQueries({ queryKey: eventTypeKeys.forApp(appId) });
  const toggleArchived = useMutation({
    mutationFn: (type: EventType) => updateEventType(appId, type.name, { archived: !type.archived }),
    onSuccess: refresh,
  });
  const rows =
    eventTypes.data?.pages.flatMap((page) => page.data).filter((type) => showArchived || !type.archived) ?? [];
  return (
    <div>
      <PageHeader
        title="Event types"
        actions={
          <>
            <label className="flex items-center gap-1.5 text-xs text-zinc-600">
              <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />
              Show archived
            </label>
            {canWrite ? (
              <Button variant="primary" onClick={() => setEditing('new')}>
                New event type
              </Button>
            ) : null}
          </>
        }
      />
      <InlineError error={toggleArchived.error} />
      <Card>
        {eventTypes.isPending ? (
          <Loading label="Loading event types…" />
        ) : eventTypes.isError ? (
          <ErrorState error={eventTypes.error} retry={() => void eventTypes.refetch()} />
        ) : rows.length === 0 ? (
          <>
            <Empty title="No event types">Name the events this app sends, such as invoice.paid.</Empty>
            <GettingStarted appId={appId} />
          </>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Description</Th>
                <Th>Schema</Th>
                <Th />
              </tr>
            </thead>
            <tbody>
              {rows.map((type) => (
                <Tr key={type.id} data-testid="event-type-row">
                  <Td className="font-mono text-xs">
                    {type.name} {type.archived ? <Badge>archived</Badge> : null}
                  </Td>
                  <Td className="text-zinc-600">{type.description ?? ''}</Td>
                  <Td className="text-xs text-zinc-500">{type.schema ? 'JSON Schema' : 'none'}</Td>
                  <Td className="whitespace-nowrap text-right">
                    {!canWrite ? null : (
                      <>
                        <Button size="sm" variant="ghost" onClick={() => setEditing(type)}>
                          Edit
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          disabled={toggleArchived.isPending}
                          onClick={() => toggleArchived.mutate(type)}
                        >
                          {type.archived ? 'Unarchive' : 'Archive'}
                        </Button>
                      </>
                    )}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        <LoadMore pages={eventTypes} testId="event-types-load-more" />
      </Card>
      {editing ? (
        <EventTypeDialog
          appId={appId}
          eventType={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
          onDone={refresh}
        />
      ) : null}
    </div>
  );
}

function EventTypeDialog({
  appId,
  eventType,
  onClose,
  onDone,
}: {
  appId: string;
  eventType?: EventType;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const [name, setName] = useState(eventType?.name ?? '');
  const [description, setDescription] = useState(eventType?.description ?? '');
  const [schemaText, setSchemaText] = useState(eventType?.schema ? JSON.stringify(eventType.schema, null, 2) : '');
  const [schemaError, setSchemaError] = useState<string | null>(null);
  const save = useMutation({
    // The API takes a string; null was refused (422), so a type saved without a description failed.
    mutationFn: (schema: EventType['schema']) =>
      eventType
        ? updateEventType(appId, eventType.name, { description: description.trim(), schema })
        : createEventType(appId, { name: name.trim(), description: description.trim(), schema }),
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSchemaError(null);
    let schema: EventType['schema'] = null;
    if (schemaText.trim()) {
      try {
        // Any JSON: the API refuses what is not an object (422), and the form shows its answer.
        schema = JSON.parse(schemaText);
      } catch (problem) {
        setSchemaError(`The schema is not valid JSON: ${(problem as Error).message}`);
        return;
      }
    }
    save.mutate(schema);
  };
  return (
    <Dialog open onClose={onClose} title={eventType ? `Edit ${eventType.name}` : 'New event type'}>
      <form onSubmit={submit} className="space-y-3">
        <Field label="Name" hint="Letters, digits, dots, dashes and underscores, e.g. invoice.paid">
          <Input required disabled={Boolean(eventType)} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Description">
          <Input value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field
          label="JSON Schema (optional)"
          hint="The customer portal shows an example payload built from it; an `examples` keyword chooses the values."
        >
          <Textarea
            rows={6}
            value={schemaText}
            onChange={(e) => setSchemaText(e.target.value)}
            placeholder='{"type":"object"}'
          />
        </Field>
        {schemaError ? <InlineError error={schemaError} /> : null}
        <InlineError error={save.error} />
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
