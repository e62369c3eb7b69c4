'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { appsQuery } from '@/lib/client/queries/apps';
import {
  createOperationalEndpoint,
  deleteOperationalEndpoint,
  OPERATIONAL_EVENT_TYPES,
  operationalEndpointKeys,
  operationalEndpointsQuery,
} from '@/lib/client/queries/operations';
import type { OperationalEndpoint, OperationalEventType } from '@/lib/contract/schemas/operations';
import { OneTimeSecret } from '../shared/one-time-secret';
import { PAGERDUTY_PRESET, SLACK_PRESET } from '@/lib/domain/operational-events/payload-presets';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardHeader } from '../ui/card';
import { Dialog } from '../ui/dialog';
import { Field, Input, Select, Textarea } from '../ui/field';
import { Empty, ErrorState, InlineError, Loading } from '../ui/states';
import { Table, Td, Th, Tr } from '../ui/table';

const OPERATIONS_APP_ID = 'app_hookline_ops';

// Slack's incoming webhooks take {"text", "blocks"}; PagerDuty's Events API v2 takes its own envelope.
const PRESETS: Record<string, string> = { Slack: SLACK_PRESET, PagerDuty: PAGERDUTY_PRESET };

export function OperationalEndpointsCard() {
  const endpoints = useQuery(operationalEndpointsQuery());
  const apps = useQuery(appsQuery());
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<OperationalEndpoint | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: operationalEndpointKeys.all });
  const remove = useMutation({
    mutationFn: (endpoint: OperationalEndpoint) => deleteOperationalEndpoint(endpoint.id),
    onSuccess: async () => {
      await refresh();
      setDeleting(null);
    },
  });
  const appName = (appId: string) => apps.data?.data.find((app) => app.id === appId)?.name ?? appId;
  return (
    <Card>
      <CardHeader
        title="Operational endpoints"
        subtitle="Where Hookline sends operational events: signed and retried like every webhook"
        actions={
          <Button variant="primary" size="sm" onClick={() => setCreating(true)}>
            Add endpoint
          </Button>
        }
      />
      {endpoints.isPending ? (
        <Loading label="Loading operational endpoints…" />
      ) : endpoints.isError ? (
        <ErrorState error={endpoints.error} retry={() => void endpoints.refetch()} />
      ) : endpoints.data.data.length === 0 ? (
        <Empty title="No operational endpoints yet">
          Add your own receiver, or a Slack or PagerDuty incoming webhook.
        </Empty>
      ) : (
        <div className="overflow-x-auto">
          <Table data-testid="operational-endpoints-table">
            <thead>
              <tr>
                <Th>URL</Th>
                <Th>Events of</Th>
                <Th className="hidden sm:table-cell">Event types</Th>
                <Th className="hidden sm:table-cell">Body</Th>
                <Th />
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.map((endpoint) => (
                <Tr key={endpoint.id} data-testid="operational-endpoint-row">
                  <Td className="max-w-[10rem] sm:max-w-xs">
                    <Link
                      href={`/apps/${OPERATIONS_APP_ID}/endpoints/${endpoint.id}`}
                      className="block truncate font-mono text-xs hover:underline"
                      title={endpoint.url}
                    >
                      {endpoint.url}
                    </Link>
                    {endpoint.description ? <div className="text-xs text-zinc-500">{endpoint.description}</div> : null}
                  </Td>
                  <Td>
                    {endpoint.scopeAppId ? (
                      <Badge>{appName(endpoint.scopeAppId)}</Badge>
                    ) : (
                      <Badge tone="flight">all apps</Badge>
                    )}
                  </Td>
                  <Td className="hidden text-xs text-zinc-600 sm:table-cell">
                    {endpoint.eventTypes.length === 0 ? 'all' : endpoint.eventTypes.join(', ')}
                  </Td>
                  <Td className="hidden text-xs text-zinc-600 sm:table-cell">
                    {endpoint.payloadTemplate ? 'template' : 'Standard Webhooks'}
                  </Td>
                  <Td className="text-right">
                    <Button size="sm" variant="ghost" className="text-red-700" onClick={() => setDeleting(endpoint)}>
                      Delete
                    </Button>
                  </Td>
                </Tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      {creating ? <CreateOperationalEndpointDialog onClose={() => setCreating(false)} onDone={refresh} /> : null}
      <Dialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this operational endpoint?"
        footer={
          <>
            <Button onClick={() => setDeleting(null)}>Cancel</Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              Delete
            </Button>
          </>
        }
      >
        <p className="break-all text-sm">{deleting?.url} stops receiving operational events.</p>
        <InlineError error={remove.error} />
      </Dialog>
    </Card>
  );
}

function CreateOperationalEndpointDialog({ onClose, onDone }: { onClose: () => void; onDone: () => Promise<unknown> }) {
  const apps = useQuery(appsQuery());
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [scopeAppId, setScopeAppId] = useState('');
  const [eventTypes, setEventTypes] = useState<OperationalEventType[]>([]);
  const [template, setTemplate] = useState('');
  const create = useMutation({
    mutationFn: () =>
      createOperationalEndpoint({
        url: url.trim(),
        description: description.trim() || undefined,
        eventTypes,
        scopeAppId: scopeAppId || null,
        payloadTemplate: template.trim() || null,
      }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (type: OperationalEventType) =>
    setEventTypes((current) => (current.includes(type) ? current.filter((item) => item !== type) : [...current, type]));
  return (
    <Dialog open onClose={onClose} title={create.data ? 'Operational endpoint added' : 'Add an operational endpoint'}>
      {create.data ? (
        <div className="space-y-3">
          <OneTimeSecret
            testId="operational-endpoint-secret"
            value={create.data.secret}
            note="The signing secret (Standard Webhooks). Slack and PagerDuty ignore it; your own receiver should verify it."
          />
          <div className="flex justify-end">
            <Button variant="primary" onClick={onClose}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-3">
          <Field label="URL">
            <Input
              required
              autoFocus
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://hooks.slack.com/services/…"
            />
          </Field>
          <Field label="Description">
            <Input value={description} onChange={(e) => setDescription(e.target.value)} placeholder="on-call channel" />
          </Field>
          <Field label="Events of">
            <Select value={scopeAppId} onChange={(e) => setScopeAppId(e.target.value)} aria-label="Events of">
              <option value="">All apps (deployment-wide)</option>
              {apps.data?.data
                .filter((app) => app.id !== OPERATIONS_APP_ID)
                .map((app) => (
                  <option key={app.id} value={app.id}>
                    Only {app.name}
                  </option>
                ))}
            </Select>
          </Field>
          <fieldset>
            <legend className="mb-1 text-xs font-medium text-zinc-600">Event types (none checked: all)</legend>
            <div className="grid grid-cols-1 gap-x-3 gap-y-1 sm:grid-cols-2">
              {OPERATIONAL_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-center gap-2 font-mono text-xs">
                  <input type="checkbox" checked={eventTypes.includes(type)} onChange={() => toggle(type)} />
                  {type}
                </label>
              ))}
            </div>
          </fieldset>
          <Field
            label="Payload template (optional)"
            hint={
              <span className="flex flex-wrap items-center gap-1">
                Empty: the Standard Webhooks envelope. Presets:
                {Object.entries(PRESETS).map(([name, preset]) => (
                  <Button key={name} size="sm" variant="ghost" onClick={() => setTemplate(preset)}>
                    {name}
                  </Button>
                ))}
              </span>
            }
          >
            <Textarea
              rows={4}
              aria-label="Payload template"
              className="font-mono text-xs"
              value={template}
              onChange={(e) => setTemplate(e.target.value)}
              placeholder='{"text": "{{type}}: {{data.endpoint_url}}"}'
            />
          </Field>
          <InlineError error={create.error} />
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              Add endpoint
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
