'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { appKeys, appQuery, deleteApp, updateApp } from '@/lib/queries/apps';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/field';
import { ErrorState, InlineError, Loading } from '../ui/states';

export function AppSettings({ appId }: { appId: string }) {
  const app = useQuery(appQuery(appId));
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  useEffect(() => {
    if (app.data) setName(app.data.name);
  }, [app.data]);
  const rename = useMutation({
    mutationFn: () => updateApp(appId, { name: name.trim() }),
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
            <Button type="submit" variant="primary" disabled={rename.isPending || name.trim() === app.data.name}>
              Save
            </Button>
          </form>
        </CardBody>
      </Card>
      <Card className="border-red-200">
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
