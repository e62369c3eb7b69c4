'use client';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { createEndpoint, endpointKeys, endpointPagesQuery } from '@/lib/client/queries/endpoints';
import { GettingStarted } from '../apps/getting-started';
import { LiveStatus } from '../filters/live-status';
import { formatCount, formatCountAtLeast } from '../format';
import { OneTimeSecret } from '../shared/one-time-secret';
import { canChange, useViewer, viewerPaths } from '../shared/viewer';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { LoadMore } from '../ui/load-more';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { EndpointForm } from './endpoint-form';
import { EndpointStatusBadges, LastError, SuccessRate } from './endpoint-health-cell';
import { useCan } from '../auth/member-context';

/** An app's endpoints: the operator's list, and the customer portal's home page (fewer columns, the
 * customer's words, no way to add one in a read-only session). */
export function EndpointsList({ appId }: { appId: string }) {
  const viewer = useViewer();
  const operator = viewer.kind === 'operator';
  const paths = viewerPaths(viewer, appId);
  const endpoints = useInfiniteQuery(endpointPagesQuery(appId));
  const rows = endpoints.data?.pages.flatMap((page) => page.data) ?? [];
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
          operator ? (
            <LiveStatus
              updatedAt={endpoints.dataUpdatedAt}
              fetching={endpoints.isFetching}
              failed={endpoints.isError}
            />
          ) : (
            'The URLs that receive your webhooks'
          )
        }
        actions={
          canChange(viewer) && canWrite ? (
            <Button variant="primary" onClick={() => setCreating(true)}>
              {operator ? 'New endpoint' : 'Add endpoint'}
            </Button>
          ) : null
        }
      />
      <Card>
        {endpoints.isPending ? (
          <Loading label="Loading endpoints…" />
        ) : endpoints.isError ? (
          <ErrorState error={endpoints.error} retry={() => void endpoints.refetch()} />
        ) : rows.length === 0 ? (
          operator ? (
            <>
              <Empty title="No endpoints yet">Add the URL that should receive this app&apos;s webhooks.</Empty>
              <GettingStarted appId={appId} />
            </>
          ) : (
            <Empty title="No endpoints yet">Add the URL of your server that should receive webhooks.</Empty>
          )
        ) : (
          <Table data-testid="endpoints-table">
            <thead>
              <tr>
                <Th>URL</Th>
                <Th>Status</Th>
                <Th className="text-right max-sm:hidden">Success 24 h</Th>
                {operator ? <Th className="text-right">Attempts 24 h</Th> : null}
                {operator ? <Th className="text-right">Queued</Th> : null}
                <Th className="max-sm:hidden">Last error</Th>
                <Th className="max-sm:hidden">Event types</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((endpoint) => (
                <Tr key={endpoint.id} data-testid="endpoint-row">
                  <Td className="max-w-sm">
                    <Link
                      href={paths.endpoint(endpoint.id)}
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
                  <Td className="text-right max-sm:hidden">
                    <SuccessRate endpoint={endpoint} />
                  </Td>
                  {operator ? (
                    <>
                      <Td className="tabular text-right">{formatCount(endpoint.health?.attempts24h)}</Td>
                      <Td className="tabular text-right">
                        {endpoint.health
                          ? formatCountAtLeast(endpoint.health.pending, endpoint.health.pendingCapped)
                          : formatCount(null)}
                      </Td>
                    </>
                  ) : null}
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
        <LoadMore pages={endpoints} testId="endpoints-load-more" />
      </Card>
      <Dialog
        open={creating}
        onClose={close}
        title={
          create.data ? (operator ? 'Endpoint created' : 'Endpoint added') : operator ? 'New endpoint' : 'Add endpoint'
        }
      >
        {create.data ? (
          <div className="space-y-3">
            <OneTimeSecret
              testId="new-endpoint-secret"
              value={create.data.secret}
              note={
                operator
                  ? 'The signing secret. Give it to the receiver so it can verify webhook-signature. You can reveal it again on the endpoint page.'
                  : "The signing secret: your server uses it to verify the webhook-signature header. You can show it again on the endpoint's page."
              }
            />
            <div className="flex justify-end gap-2">
              <Button onClick={close}>Close</Button>
              <Link
                className="inline-flex h-9 items-center rounded-md bg-zinc-900 px-3 text-sm font-medium text-white"
                href={paths.endpoint(create.data.id)}
              >
                Open endpoint
              </Link>
            </div>
          </div>
        ) : (
          <EndpointForm
            appId={appId}
            submitLabel={operator ? 'Create endpoint' : 'Add endpoint'}
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
