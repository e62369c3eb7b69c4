'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { appKeys, appQuery, updateApp } from '@/lib/client/queries/apps';
import { createPortalSession } from '@/lib/client/queries/portal-sessions';
import type { App } from '@/lib/contract/schemas/apps';
import { Button } from '../ui/button';
import { Card, CardBody, CardHeader } from '../ui/card';
import { Field, Input, Textarea } from '../ui/field';
import { InlineError } from '../ui/states';
import { cn } from '../ui/cn';
import { useCan } from '../auth/member-context';

const toLines = (origins: string[] | undefined) => (origins ?? []).join('\n');
const fromLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The app's customer portal: how it looks, who may embed it, and a way to see it as a customer does. */
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
  const httpListed = fromLines(origins).some((origin) => origin.toLowerCase().startsWith('http://'));
  return (
    <div className="max-w-xl space-y-4">
      <PortalBranding app={app.data} />
      <Card>
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
            <p
              data-testid="portal-http-embedding-note"
              className={cn(
                'rounded-md px-3 py-2 text-xs',
                httpListed ? 'border border-amber-200 bg-amber-50 text-amber-900' : 'text-zinc-500',
              )}
            >
              Embedding in another site needs https. The portal&apos;s session cookie reaches a page framed by another
              site only as <code>SameSite=None</code>, which browsers accept only with <code>Secure</code>, over https;
              over plain http it is <code>SameSite=Lax</code> and the framed portal has no session, so the browser
              refuses it (<code>frame-ancestors &apos;none&apos;</code>) even from a site listed here. Over http the
              portal embeds only in a page of the same site (such as another port of <code>localhost</code>); serve
              Hookline over https (<code>HOOKLINE_PUBLIC_URL=https://…</code>) to embed it anywhere else.
            </p>
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
    </div>
  );
}

/** The name, logo and colour the app's customers see in the portal; empty fields fall back to the
 * app's name, no logo and the default colour. The API validates each (https logo, #rrggbb colour). */
function PortalBranding({ app }: { app: App }) {
  const queryClient = useQueryClient();
  const canWrite = useCan('integrations.write');
  const [name, setName] = useState(app.portalName ?? '');
  const [logoUrl, setLogoUrl] = useState(app.portalLogoUrl ?? '');
  const [accentColor, setAccentColor] = useState(app.portalAccentColor ?? '');
  useEffect(() => {
    setName(app.portalName ?? '');
    setLogoUrl(app.portalLogoUrl ?? '');
    setAccentColor(app.portalAccentColor ?? '');
  }, [app.portalName, app.portalLogoUrl, app.portalAccentColor]);
  const save = useMutation({
    mutationFn: () =>
      updateApp(app.id, {
        portalName: name.trim() || null,
        portalLogoUrl: logoUrl.trim() || null,
        portalAccentColor: accentColor.trim() || null,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Card>
      <CardHeader title="Portal branding" subtitle="What your customers see at the top of the portal" />
      <CardBody>
        <form onSubmit={submit} className="space-y-3">
          <Field label="Portal name" hint={`Empty: the app's name (${app.name}).`}>
            <Input name="portalName" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label="Logo URL" hint="https only; shown about 32 px high. Empty: no logo.">
            <Input
              name="portalLogoUrl"
              value={logoUrl}
              placeholder="https://cdn.example.com/logo.svg"
              onChange={(event) => setLogoUrl(event.target.value)}
            />
          </Field>
          <Field label="Accent colour" hint="#rrggbb, such as #4f46e5. Empty: the default.">
            <Input
              name="portalAccentColor"
              value={accentColor}
              placeholder="#4f46e5"
              className="w-32 font-mono"
              onChange={(event) => setAccentColor(event.target.value)}
            />
          </Field>
          <InlineError error={save.error} />
          {save.isSuccess ? <p className="text-sm text-green-700">Branding updated.</p> : null}
          <Button type="submit" variant="primary" disabled={save.isPending} hidden={!canWrite}>
            Save branding
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
