'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { endpointsQuery } from '@/lib/client/queries/endpoints';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import { CopyButton } from '../shared/copy-button';
import { cn } from '../ui/cn';

function Snippet({ label, text }: { label: string; text: string }) {
  return (
    <div className="mt-1">
      <div className="flex items-center justify-between">
        <span className="text-xs text-zinc-500">{label}</span>
        <CopyButton text={text} label={`Copy ${label}`} />
      </div>
      <pre
        aria-label={label}
        className="overflow-x-auto whitespace-pre-wrap break-all rounded-md border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs text-zinc-800"
      >
        {text}
      </pre>
    </div>
  );
}

/**
 * The next step for an app that is not sending yet: event type -> endpoint -> test event, each with
 * REST and SQL ready to paste, filled in with this app's id. A step already done is marked so.
 */
export function GettingStarted({ appId }: { appId: string }) {
  const eventTypes = useQuery(eventTypesQuery(appId));
  const endpoints = useQuery(endpointsQuery(appId));
  // The server's own address, known only in the browser.
  const [origin, setOrigin] = useState('http://127.0.0.1:3000');
  useEffect(() => setOrigin(window.location.origin), []);
  const api = `${origin}/api/v1/apps/${appId}`;
  const auth = '-H "Authorization: Bearer $HOOKLINE_API_KEY" -H "Content-Type: application/json"';
  const firstType = eventTypes.data?.data.find((type) => !type.archived)?.name ?? 'invoice.paid';
  const firstEndpoint = endpoints.data?.data[0];
  const steps = [
    {
      title: 'Name an event type',
      done: (eventTypes.data?.data.length ?? 0) > 0,
      href: `/apps/${encodeURIComponent(appId)}/event-types`,
      rest: `curl -sS ${api}/event-types ${auth} \\\n  -d '{"name": "${firstType}", "description": "An invoice was paid"}'`,
      sql: null,
    },
    {
      title: 'Add an endpoint that receives them',
      done: Boolean(firstEndpoint),
      href: `/apps/${encodeURIComponent(appId)}/endpoints`,
      rest: `curl -sS ${api}/endpoints ${auth} \\\n  -d '{"url": "https://example.com/webhooks", "eventTypes": ["${firstType}"]}'`,
      sql: null,
    },
    {
      title: 'Send a test event',
      done: false,
      href: firstEndpoint
        ? `/apps/${encodeURIComponent(appId)}/endpoints/${encodeURIComponent(firstEndpoint.id)}`
        : null,
      rest: `curl -sS ${api}/messages ${auth} \\\n  -d '{"eventType": "${firstType}", "payload": {"invoice": "in_1", "amount": 4200}}'`,
      sql: `SELECT hookline.send('${appId}', '${firstType}', '{"invoice": "in_1", "amount": 4200}'::jsonb);`,
    },
  ];
  return (
    <section aria-label="Getting started" data-testid="getting-started" className="px-4 py-4 text-left">
      <p className="text-sm font-medium text-zinc-800">Start sending webhooks from this app</p>
      <p className="text-xs text-zinc-500">
        Three steps; each works from this dashboard, the REST API (an API key from API keys) or SQL.
      </p>
      <ol className="mt-3 space-y-4">
        {steps.map((step, index) => (
          <li key={step.title} data-testid="getting-started-step">
            <div className="flex items-center gap-2 text-sm">
              <span
                className={cn(
                  'flex h-5 w-5 items-center justify-center rounded-full text-xs',
                  step.done ? 'bg-green-600 text-white' : 'bg-zinc-200 text-zinc-700',
                )}
              >
                {step.done ? '✓' : index + 1}
              </span>
              {step.href ? (
                <Link className="font-medium hover:underline" href={step.href}>
                  {step.title}
                </Link>
              ) : (
                <span className="font-medium">{step.title}</span>
              )}
              {step.done ? <span className="text-xs text-green-700">done</span> : null}
            </div>
            <Snippet label="REST" text={step.rest} />
            {step.sql ? <Snippet label="SQL" text={step.sql} /> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
