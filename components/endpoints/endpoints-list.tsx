'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { createEndpoint, endpointKeys, endpointsQuery } from '@/lib/client/queries/endpoints';
import { GettingStarted } from '../apps/getting-started';
import { LiveStatus } from '../filters/live-status';
import { formatCount } from '../format';
import { OneTimeSecret } from '../shared/one-time-secret';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { EndpointForm } from './endpoint-form';
import { EndpointStatusBadges, LastError, SuccessRate } from './endpoint-health-cell';
import { useCan } from '../auth/member-context';

export function EndpointsList({ appId }: { appId: string }) {
  const endpoints = useQuery(endpointsQuery(appId));
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const canWrite = useCan('integrations.write');
  const create = useMutation({
    mutationFn: (input: Parameters<typeof createEndpoint>[1]) => createEndpoint(appId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointKeys.forApp(appId) }),
  });
  const close = () => {
    setCreating(false);
    create.reset();
  };
  return (
    <div>
      <PageHeader
        title="Endpoints"
        subtitle={
          <LiveStatus updatedAt={endpoints.dataUpdatedAt} fetching={endpoints.isFetching} failed={endpoints.isError} />
        }
        actions={
          canWrite ? (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New endpoint
            </Button>
          ) : null
        }
      />
      <Card>
        {endpoints.isPending ? (
          <Loading label="Loading endpoints…" />
        ) : endpoints.isError ? (
          <ErrorState error={endpoints.error} retry={() => void endpoints.refetch()} />
        ) : endpoints.data.data.length === 0 ? (
          <>
            <Empty title="No endpoints yet">Add the URL that should receive this app&apos;s webhooks.</Empty>
            <GettingStarted appId={appId} />
          </>
        ) : (
          <Table data-testid="endpoints-table">
            <thead>
              <tr>
                <Th>URL</Th>
                <Th>Status</Th>
                <Th className="text-right">Success 24 h</Th>
                <Th className="text-right">Attempts 24 h</Th>
                <Th className="text-right">Queued</Th>
                <Th>Last error</Th>
                <Th>Event types</Th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.map((endpoint) => (
                <Tr key={endpoint.id} data-testid="endpoint-row">
                  <Td className="max-w-sm">
                    <Link
                      href={`/apps/${encodeURIComponent(appId)}/endpoints/${encodeURIComponent(endpoint.id)}`}
                      className="block break-all font-mono text-xs font-medium text-zinc-900 hover:underline"
                    >
                      {endpoint.url}
                    </Link>
                    {endpoint.description ? <div className="text-xs text-zinc-500">{endpoint.description}</div> : null}
                    {!endpoint.enabled && endpoint.disabledReason ? (
                      <div className="text-xs text-red-700">Disabled: {endpoint.disabledReason}</div>
                    ) : null}
                  </Td>
                  <Td>
                    <EndpointStatusBadges endpoint={endpoint} />
                  </Td>
                  <Td className="text-right">
                    <SuccessRate endpoint={endpoint} />
                  </Td>
                  <Td className="tabular text-right">{formatCount(endpoint.health?.attempts24h)}</Td>
                  <Td className="tabular text-right">{formatCount(endpoint.health?.pending)}</Td>
                  <Td>
                    <LastError endpoint={endpoint} />
                  </Td>
                  <Td className="max-w-[12rem] font-mono text-xs text-zinc-600">
                    {endpoint.eventTypes.length ? (
                      endpoint.eventTypes.join(', ')
                    ) : (
                      <span className="text-zinc-400">all</span>
                    )}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <Dialog open={creating} onClose={close} title={create.data ? 'Endpoint created' : 'New endpoint'}>
        {create.data ? (
          <div className="space-y-3">
            <OneTimeSecret
              testId="new-endpoint-secret"
              value={create.data.secret}
              note="The signing secret. Give it to the receiver so it can verify webhook-signature. You can reveal it again on the endpoint page."
            />
            <div className="flex justify-end gap-2">
              <Button onClick={close}>Close</Button>
              <Link
                className="inline-flex h-9 items-center rounded-md bg-zinc-900 px-3 text-sm font-medium text-white"
                href={`/apps/${encodeURIComponent(appId)}/endpoints/${encodeURIComponent(create.data.id)}`}
              >
                Open endpoint
              </Link>
            </div>
          </div>
        ) : (
          <EndpointForm
            appId={appId}
            submitLabel="Create endpoint"
            pending={create.isPending}
            error={create.error}
            onSubmit={(input) => create.mutate(input)}
            onCancel={close}
          />
        )}
      </Dialog>
    </div>
  );
}
