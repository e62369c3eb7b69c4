'use client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { appsQuery } from '@/lib/client/queries/apps';
import { apiKeyKeys, apiKeyPagesQuery, createApiKey, revokeApiKey } from '@/lib/client/queries/api-keys';
import type { ApiKey } from '@/lib/contract/schemas/api-keys';
import { formatRelative, formatTime } from '../format';
import { OneTimeSecret } from '../shared/one-time-secret';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/field';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';
import { useCan } from '../auth/member-context';
import { AppSelect } from '../filters/app-select';
import { LoadMore } from '../ui/load-more';

export function ApiKeysList() {
  const keys = useInfiniteQuery(apiKeyPagesQuery());
  const canManage = useCan('operations.manage');
  const apps = useQuery(appsQuery());
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => revokeApiKey(key.id),
    onSuccess: async () => {
      await refresh();
      setRevoking(null);
    },
  });
  const rows = keys.data?.pages.flatMap((page) => page.data) ?? [];
  const appName = (appId: string | null) =>
    appId ? (apps.data?.data.find((app) => app.id === appId)?.name ?? appId) : null;
  return (
    <div>
      <PageHeader
        title="API keys"
        subtitle="Bearer keys for the REST API; stored hashed, shown once"
        actions={
          canManage ? (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New API key
            </Button>
          ) : null
        }
      />
      <Card>
        {keys.isPending ? (
          <Loading label="Loading API keys…" />
        ) : keys.isError ? (
          <ErrorState error={keys.error} retry={() => void keys.refetch()} />
        ) : rows.length === 0 ? (
          <Empty title="No API keys yet" />
        ) : (
          <Table data-testid="api-keys-table">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Key</Th>
                <Th>Scope</Th>
                <Th>Created</Th>
                <Th>Last used</Th>
                <Th />
              </tr>
            </thead>
            <tbody>
              {rows.map((key) => (
                <Tr key={key.id} data-testid="api-key-row">
                  <Td className="font-medium">{key.name}</Td>
                  <Td className="font-mono text-xs text-zinc-500">{key.prefix}…</Td>
                  <Td>{key.appId ? <Badge>{appName(key.appId)}</Badge> : <Badge tone="flight">all apps</Badge>}</Td>
                  <Td className="text-xs text-zinc-500">{formatTime(key.createdAt)}</Td>
                  <Td className="text-xs text-zinc-500">{formatRelative(key.lastUsedAt)}</Td>
                  <Td className="text-right">
                    {key.revokedAt ? (
                      <Badge tone="fail">revoked {formatRelative(key.revokedAt)}</Badge>
                    ) : !canManage ? null : (
                      <Button size="sm" variant="ghost" className="text-red-700" onClick={() => setRevoking(key)}>
                        Revoke
                      </Button>
                    )}
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
        <LoadMore pages={keys} testId="api-keys-load-more" />
      </Card>
      {creating ? <CreateKeyDialog onClose={() => setCreating(false)} onDone={refresh} /> : null}
      <Dialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke ${revoking?.name ?? ''}?`}
        footer={
          <>
            <Button onClick={() => setRevoking(null)}>Cancel</Button>
            <Button variant="danger" disabled={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking)}>
              Revoke
            </Button>
          </>
        }
      >
        <p className="text-sm">Requests with this key are refused from now on.</p>
        <InlineError error={revoke.error} />
      </Dialog>
    </div>
  );
}

function CreateKeyDialog({ onClose, onDone }: { onClose: () => void; onDone: () => Promise<unknown> }) {
  const [name, setName] = useState('');
  const [appId, setAppId] = useState('');
  const create = useMutation({
    mutationFn: () => createApiKey({ name: name.trim(), ...(appId ? { appId } : {}) }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Dialog open onClose={onClose} title={create.data ? 'API key created' : 'New API key'}>
      {create.data ? (
        <div className="space-y-3">
          <OneTimeSecret
            testId="new-api-key"
            value={create.data.key}
            note="Copy this key now. It is stored only as a hash and will never be shown again."
          />
          <div className="flex justify-end">
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-3">
          <Field label="Name">
            <Input
              required
              autoFocus
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="billing-service"
            />
          </Field>
          <Field label="Scope">
            <AppSelect
              allowAll
              allLabel="All apps (deployment-wide)"
              label="Scope"
              className="w-full"
              value={appId || undefined}
              onChange={(chosen) => setAppId(chosen ?? '')}
            />
          </Field>
          <InlineError error={create.error} />
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Create key
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
