'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { appKeys, appsQuery, createApp } from '@/lib/queries/apps';
import { formatTime } from '../format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

export function AppsList() {
  const apps = useQuery(appsQuery());
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => createApp({ name: name.trim() }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: appKeys.all });
      setOpen(false);
      setName('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <div>
      <PageHeader
        title="Apps"
        subtitle="One app per customer that receives webhooks"
        actions={
          <Button variant="primary" onClick={() => setOpen(true)}>
            New app
          </Button>
        }
      />
      <Card>
        {apps.isPending ? (
          <Loading label="Loading apps…" />
        ) : apps.isError ? (
          <ErrorState error={apps.error} retry={() => void apps.refetch()} />
        ) : apps.data.data.length === 0 ? (
          <Empty title="No apps yet">Create one to add endpoints and send messages.</Empty>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Id</Th>
                <Th>Created</Th>
                <Th />
              </tr>
            </thead>
            <tbody>
              {apps.data.data.map((app) => (
                <Tr key={app.id}>
                  <Td>
                    <Link href={`/apps/${encodeURIComponent(app.id)}/endpoints`} className="font-medium hover:underline">
                      {app.name}
                    </Link>
                  </Td>
                  <Td className="font-mono text-xs text-zinc-500">{app.id}</Td>
                  <Td className="text-xs text-zinc-500">{formatTime(app.createdAt)}</Td>
                  <Td className="whitespace-nowrap text-right text-xs">
                    <Link className="mr-3 text-zinc-600 hover:underline" href={`/apps/${encodeURIComponent(app.id)}/event-types`}>
                      Event types
                    </Link>
                    <Link className="text-zinc-600 hover:underline" href={`/apps/${encodeURIComponent(app.id)}`}>
                      Settings
                    </Link>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <Dialog open={open} onClose={() => setOpen(false)} title="New app">
        <form onSubmit={submit} className="space-y-3">
          <Field label="Name">
            <Input name="name" required autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="Acme Corp" />
          </Field>
          <InlineError error={create.error} />
          <div className="flex justify-end gap-2">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Create app
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
