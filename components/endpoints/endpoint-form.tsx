'use client';
import { useState, type FormEvent } from 'react';
import type { EndpointInput } from '@/lib/client/queries/endpoints';
import type { Endpoint } from '@/lib/contract/schemas/endpoints';
import { Button } from '../ui/button';
import { Field, Input, Textarea } from '../ui/field';
import { InlineError } from '../ui/states';
import { EventTypeChecklist } from './event-type-checklist';

function headersToText(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** "Name: value" per line; a line without a colon is a mistake worth naming, not silently dropping. */
function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`Header line ${index + 1} must look like "Name: value".`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  });
  return headers;
}

export function EndpointForm({
  appId,
  endpoint,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  appId: string;
  endpoint?: Endpoint;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: EndpointInput & { url: string }) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [selectedTypes, setSelectedTypes] = useState<string[]>(endpoint?.eventTypes ?? []);
  const [maxConcurrency, setMaxConcurrency] = useState(String(endpoint?.maxConcurrency ?? 10));
  const [rateLimit, setRateLimit] = useState(endpoint?.rateLimitPerSecond ? String(endpoint.rateLimitPerSecond) : '');
  const [headersText, setHeadersText] = useState(headersToText(endpoint?.headers));
  const [retrySchedule, setRetrySchedule] = useState(endpoint?.retrySchedule ?? '');
  const [timeoutMs, setTimeoutMs] = useState(endpoint?.timeoutMs ? String(endpoint.timeoutMs) : '');
  const [formError, setFormError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    let headers: Record<string, string>;
    try {
      headers = parseHeaders(headersText);
    } catch (problem) {
      setFormError((problem as Error).message);
      return;
    }
    onSubmit({
      url: url.trim(),
      // The API takes a string; null was refused, so an edit that cleared the description failed.
      description: description.trim(),
      eventTypes: selectedTypes,
      maxConcurrency: Number(maxConcurrency),
      rateLimitPerSecond: rateLimit.trim() ? Number(rateLimit) : null,
      headers,
      // Empty: inherit the app's default (or the deployment's); the API names what is wrong otherwise.
      retrySchedule: retrySchedule.trim() || null,
      timeoutMs: timeoutMs.trim() ? Number(timeoutMs) : null,
    });
  };
  // Only an endpoint that inherits shows what it inherits; a new one inherits its app's default.
  const inherited =
    endpoint && endpoint.retryPolicy.retryScheduleFrom !== 'endpoint'
      ? `${endpoint.retryPolicy.retryScheduleFrom}'s: ${endpoint.retryPolicy.retrySchedule}`
      : "app's default";
  const inheritedTimeout =
    endpoint && endpoint.retryPolicy.timeoutFrom !== 'endpoint'
      ? `${endpoint.retryPolicy.timeoutFrom}'s: ${endpoint.retryPolicy.timeoutMs} ms`
      : "app's default";
  return (
    <form onSubmit={submit} className="space-y-3">
      <Field label="URL">
        <Input
          name="url"
          type="url"
          required
          placeholder="https://example.com/webhooks"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
      </Field>
      <Field label="Description">
        <Input name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <EventTypeChecklist appId={appId} selected={selectedTypes} onChange={setSelectedTypes} />
      <div className="grid grid-cols-2 gap-3">
        <Field label="Max concurrent requests">
          <Input type="number" min={1} value={maxConcurrency} onChange={(e) => setMaxConcurrency(e.target.value)} />
        </Field>
        <Field label="Rate limit (requests/s)" hint="Empty = unlimited">
          <Input type="number" min={1} value={rateLimit} onChange={(e) => setRateLimit(e.target.value)} />
        </Field>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Retry schedule" hint={`Delay before each attempt, first 0; empty = the ${inherited}`}>
          <Input
            name="retrySchedule"
            placeholder="0,5s,5m,30m,2h"
            value={retrySchedule}
            onChange={(e) => setRetrySchedule(e.target.value)}
          />
        </Field>
        <Field label="Timeout (ms)" hint={`Per attempt; empty = the ${inheritedTimeout}`}>
          <Input
            name="timeoutMs"
            type="number"
            min={100}
            max={300000}
            value={timeoutMs}
            onChange={(e) => setTimeoutMs(e.target.value)}
          />
        </Field>
      </div>
      <Field label="Custom headers" hint='One "Name: value" per line'>
        <Textarea rows={3} value={headersText} onChange={(e) => setHeadersText(e.target.value)} />
      </Field>
      {formError ? <InlineError error={formError} /> : null}
      <InlineError error={error} />
      <div className="flex justify-end gap-2">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
