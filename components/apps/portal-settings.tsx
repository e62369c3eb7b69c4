'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { appKeys, appQuery, updateApp } from '@/lib/client/queries/apps';
import { createPortalSession } from '@/lib/client/queries/portal-sessions';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader } from '../ui/card';
import { Field, Textarea } from '../ui/field';
import { InlineError } from '../ui/states';
import { useCan } from '../auth/member-context';

const toLines = (origins: string[] | undefined) => (origins ?? []).join('\n');
const fromLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The app's customer portal: who may embed it, and a way for the operator to see it as a customer does. */
export function PortalSettings({ appId }: { appId: string }) {
  const app = useQuery(appQuery(appId));
  const queryClient = useQueryClient();
  const [origins, setOrigins] = useState('');
  const canWrite = useCan('integrations.write');
  useEffect(() => {
    if (app.data) setOrigins(toLines(app.data.portalFrameAncestors));
  }, [app.data]);
  const save = useMutation({
    mutationFn: () => updateApp(appId, { portalFrameAncestors: fromLines(origins) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
  // A short read-only session: enough to look, and nothing to clean up.
  const preview = useMutation({
    mutationFn: () => createPortalSession(appId, { expiresInSeconds: 900, readOnly: true }),
    onSuccess: (session) => window.open(session.url, '_blank', 'noopener,noreferrer'),
  });
  if (!app.data) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card className="max-w-xl">
      <CardHeader
        title="Customer portal"
        subtitle="Your backend creates portal links with POST /api/v1/apps/{appId}/portal-sessions; see the README."
      />
      <CardBody>
        <form onSubmit={submit} className="space-y-3">
          <Field
            label="Sites allowed to embed the portal"
            hint="One origin per line, such as https://app.example.com or https://*.example.com. Empty: no site may frame it."
          >
            <Textarea
              name="portalFrameAncestors"
              rows={3}
              value={origins}
              onChange={(event) => setOrigins(event.target.value)}
              placeholder="https://app.example.com"
            />
          </Field>
          <InlineError error={save.error} />
          {save.isSuccess ? <p className="text-sm text-green-700">Embedding sites updated.</p> : null}
          <div className="flex flex-wrap gap-2" hidden={!canWrite}>
            <Button
              type="submit"
              variant="primary"
              disabled={save.isPending || toLines(app.data.portalFrameAncestors) === fromLines(origins).join('\n')}
            >
              Allow these sites
            </Button>
            <Button disabled={preview.isPending} onClick={() => preview.mutate()}>
              Open the portal (read-only, 15 min)
            </Button>
          </div>
          <InlineError error={preview.error} />
        </form>
      </CardBody>
    </Card>
  );
}
