'use client';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { appKeys, appPagesQuery, createApp } from '@/lib/client/queries/apps';
import type { AppSummary } from '@/lib/contract/schemas/apps';
import { formatCount, formatCountAtLeast, formatPercent } from '../format';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/field';
import { LoadMore } from '../ui/load-more';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { useCan } from '../auth/member-context';

export function AppsList() {
  const apps = useInfiniteQuery(appPagesQuery());
  const rows = apps.data?.pages.flatMap((page) => page.data) ?? [];
  const canCreate = useCan('apps.manage');
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
          canCreate ? (
            <Button variant="primary" onClick={() => setOpen(true)}>
              New app
            </Button>
          ) : null
        }
      />
      <Card>
        {apps.isPending ? (
          <Loading label="Loading apps…" />
        ) : apps.isError ? (
          <ErrorState error={apps.error} retry={() => void apps.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title="No apps yet">Create one to add endpoints and send messages.</Empty>
        ) : (
          <Table>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="text-right">Endpoints</Th>
                <Th className="text-right" title="Succeeded share of the attempts in the last 24 hours">
                  Success 24 h
                </Th>
                <Th
                  className="text-right"
                  title="Waiting or retrying and due now, plus those being sent: the queue workers act on"
                >
                  For workers
                </Th>
                <Th
                  className="text-right"
                  title="Waiting or retrying but held: by an open circuit, a disabled endpoint or a retry's backoff"
                >
                  Held
                </Th>
                <Th className="max-sm:hidden" />
              </tr>
            </thead>
            <tbody>
              {rows.map((app) => (
                <Tr key={app.id} data-testid="app-row">
                  <Td>
                    <Link
                      href={`/apps/${encodeURIComponent(app.id)}/endpoints`}
                      className="font-medium hover:underline"
                    >
                      {app.name}
                    </Link>
                    <div className="break-all font-mono text-xs text-zinc-500">{app.id}</div>
                  </Td>
                  <Td className="tabular text-right" data-testid="app-endpoints">
                    {formatCount(app.summary?.endpoints)}
                  </Td>
                  <Td
                    className="tabular text-right"
                    data-testid="app-success-rate"
                    title={app.summary ? `${formatCount(app.summary.attempts24h)} attempts` : undefined}
                  >
                    {formatPercent(app.summary?.successRate24h)}
                  </Td>
                  <Td className="tabular text-right" data-testid="app-queued">
                    <Link
                      className="hover:underline"
                      href={`/overview?appId=${encodeURIComponent(app.id)}`}
                      title={app.summary ? `${formatCount(app.summary.queue.delivering)} being sent now` : undefined}
                    >
                      {app.summary
                        ? formatCountAtLeast(
                            app.summary.queue.worker + app.summary.queue.delivering,
                            app.summary.queueCapped,
                          )
                        : formatCount(null)}
                    </Link>
                  </Td>
                  <Td
                    className="tabular text-right"
                    data-testid="app-held"
                    title={app.summary ? heldTitle(app.summary.queue) : undefined}
                  >
                    {app.summary
                      ? formatCountAtLeast(
                          app.summary.queue.circuit + app.summary.queue.endpointEnabled + app.summary.queue.retryTime,
                          app.summary.queueCapped,
                        )
                      : formatCount(null)}
                  </Td>
                  <Td className="whitespace-nowrap text-right text-xs max-sm:hidden">
                    <Link
                      className="mr-3 text-zinc-600 hover:underline"
                      href={`/apps/${encodeURIComponent(app.id)}/event-types`}
                    >
                      Event types
                    </Link>
                    <Link
                      className="text-zinc-600 hover:underline"
                      href={`/apps/${encodeURIComponent(app.id)}/settings`}
                    >
                      Settings
                    </Link>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        <LoadMore pages={apps} testId="apps-load-more" />
      </Card>
      <Dialog open={open} onClose={() => setOpen(false)} title="New app">
        <form onSubmit={submit} className="space-y-3">
          <Field label="Name">
            <Input
              name="name"
              required
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Acme Corp"
            />
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

/** What holds an app's waiting deliveries, counted now. */
function heldTitle(queue: AppSummary['queue']): string {
  return [
    `${formatCount(queue.circuit)} by an open circuit`,
    `${formatCount(queue.endpointEnabled)} by a disabled endpoint`,
    `${formatCount(queue.retryTime)} until their retry time`,
  ].join(', ');
}
