'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { createEndpoint, endpointKeys, endpointsQuery } from '@/lib/client/queries/endpoints';
import { EndpointForm } from '../endpoints/endpoint-form';
import { EndpointStatusBadges, LastError, SuccessRate } from '../endpoints/endpoint-health-cell';
import { OneTimeSecret } from '../shared/one-time-secret';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { usePortalSession } from './portal-session';

export const portalEndpointHref = (endpointId: string) => `/portal/endpoints/${encodeURIComponent(endpointId)}`;

export function PortalEndpoints() {
  const { appId, readOnly } = usePortalSession();
  const endpoints = useQuery(endpointsQuery(appId));
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
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
        subtitle="The URLs that receive your webhooks"
        actions={
          readOnly ? null : (
            <Button variant="primary" onClick={() => setCreating(true)}>
              Add endpoint
            </Button>
          )
        }
      />
      <Card>
        {endpoints.isPending ? (
          <Loading label="Loading endpoints…" />
        ) : endpoints.isError ? (
          <ErrorState error={endpoints.error} retry={() => void endpoints.refetch()} />
        ) : endpoints.data.data.length === 0 ? (
          <Empty title="No endpoints yet">Add the URL of your server that should receive webhooks.</Empty>
        ) : (
          <Table data-testid="portal-endpoints-table">
            <thead>
              <tr>
                <Th>URL</Th>
                <Th>Status</Th>
                <Th className="text-right max-sm:hidden">Success 24 h</Th>
                <Th className="max-sm:hidden">Last error</Th>
                <Th className="max-sm:hidden">Event types</Th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.map((endpoint) => (
                <Tr key={endpoint.id} data-testid="portal-endpoint-row">
                  <Td className="max-w-sm">
                    <Link
                      href={portalEndpointHref(endpoint.id)}
                      className="block break-all font-mono text-xs font-medium text-zinc-900 hover:underline"
                    >
                      {endpoint.url}
                    </Link>
                    {endpoint.description ? <div className="text-xs text-zinc-500">{endpoint.description}</div> : null}
                  </Td>
                  <Td>
                    <EndpointStatusBadges endpoint={endpoint} />
                  </Td>
                  <Td className="text-right max-sm:hidden">
                    <SuccessRate endpoint={endpoint} />
                  </Td>
                  <Td className="max-sm:hidden">
                    <LastError endpoint={endpoint} />
                  </Td>
                  <Td className="max-w-[12rem] font-mono text-xs text-zinc-600 max-sm:hidden">
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
      <Dialog open={creating} onClose={close} title={create.data ? 'Endpoint added' : 'Add endpoint'}>
        {create.data ? (
          <div className="space-y-3">
            <OneTimeSecret
              testId="portal-new-endpoint-secret"
              value={create.data.secret}
              note="The signing secret: your server uses it to verify the webhook-signature header. You can show it again on the endpoint's page."
            />
            <div className="flex justify-end gap-2">
              <Button onClick={close}>Close</Button>
              <Link
                className="inline-flex h-9 items-center rounded-md bg-zinc-900 px-3 text-sm font-medium text-white"
                href={portalEndpointHref(create.data.id)}
              >
                Open endpoint
              </Link>
            </div>
          </div>
        ) : (
          <EndpointForm
            appId={appId}
            submitLabel="Add endpoint"
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
