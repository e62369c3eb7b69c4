'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { appKeys, appQuery, deleteApp, updateApp } from '@/lib/client/queries/apps';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/field';
import { ErrorState, InlineError, Loading } from '../ui/states';
import { useCan } from '../auth/member-context';

export function AppSettings({ appId }: { appId: string }) {
  const app = useQuery(appQuery(appId));
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState('');
  const [retrySchedule, setRetrySchedule] = useState('');
  const [timeoutMs, setTimeoutMs] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const canWrite = useCan('integrations.write');
  const canDelete = useCan('apps.manage');
  useEffect(() => {
    if (!app.data) return;
    setName(app.data.name);
    setRetrySchedule(app.data.retrySchedule ?? '');
    setTimeoutMs(app.data.timeoutMs === null ? '' : String(app.data.timeoutMs));
  }, [app.data]);
  const rename = useMutation({
    mutationFn: () => updateApp(appId, { name: name.trim() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
  // Empty fields go back to the deployment's HOOKLINE_RETRY_SCHEDULE and HOOKLINE_DELIVERY_TIMEOUT_MS.
  const savePolicy = useMutation({
    mutationFn: () =>
      updateApp(appId, {
        retrySchedule: retrySchedule.trim() || null,
        timeoutMs: timeoutMs.trim() ? Number(timeoutMs) : null,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
  const remove = useMutation({
    mutationFn: () => deleteApp(appId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: appKeys.all });
      router.push('/apps');
    },
  });
  if (app.isPending) return <Loading label="Loading app…" />;
  if (app.isError) return <ErrorState error={app.error} retry={() => void app.refetch()} />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate();
  };
  return (
    <div className="max-w-xl space-y-4">
      <Card>
        <CardHeader title="App settings" />
        <CardBody>
          <form onSubmit={submit} className="space-y-3">
            <Field label="Name">
              <Input required value={name} onChange={(e) => setName(e.target.value)} />
            </Field>
            <InlineError error={rename.error} />
            {rename.isSuccess ? <p className="text-sm text-green-700">Saved.</p> : null}
            <Button
              type="submit"
              variant="primary"
              hidden={!canWrite}
              disabled={rename.isPending || name.trim() === app.data.name}
            >
              Save
            </Button>
          </form>
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Retry policy"
          subtitle="The default for this app's endpoints; an endpoint's own setting wins. Workers apply a change within 2 s."
        />
        <CardBody>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              savePolicy.mutate();
            }}
            className="space-y-3"
          >
            <Field
              label="Retry schedule"
              hint="Delay before each attempt, first 0, e.g. 0,5s,5m,30m,2h; empty = the deployment's"
            >
              <Input
                name="retrySchedule"
                placeholder="0,5s,5m,30m,2h,5h,10h,10h"
                value={retrySchedule}
                onChange={(e) => setRetrySchedule(e.target.value)}
              />
            </Field>
            <Field label="Timeout (ms)" hint="Per attempt, 100 to 300000; empty = the deployment's">
              <Input
                name="timeoutMs"
                type="number"
                min={100}
                max={300000}
                value={timeoutMs}
                onChange={(e) => setTimeoutMs(e.target.value)}
              />
            </Field>
            <InlineError error={savePolicy.error} />
            {savePolicy.isSuccess ? <p className="text-sm text-green-700">Saved.</p> : null}
            <Button type="submit" variant="primary" hidden={!canWrite} disabled={savePolicy.isPending}>
              Update retry policy
            </Button>
          </form>
        </CardBody>
      </Card>
      <Card className="border-red-200" hidden={!canDelete}>
        <CardHeader title="Delete app" subtitle="Removes its endpoints, event types, messages and delivery history." />
        <CardBody>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete this app…
          </Button>
        </CardBody>
      </Card>
      <Dialog
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete ${app.data.name}?`}
        footer={
          <>
            <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm">This cannot be undone. Pending deliveries of this app will never be sent.</p>
        <InlineError error={remove.error} />
      </Dialog>
    </div>
  );
}
