'use client';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import type { EndpointInput } from '@/lib/client/queries/endpoints';
import type { Endpoint } from '@/lib/contract/schemas/endpoints';
import { Button } from '../ui/button';
import { Field, Input, Textarea } from '../ui/field';
import { InlineError } from '../ui/states';

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
  const eventTypes = useQuery(eventTypesQuery(appId));
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
  const activeTypes = eventTypes.data?.data.filter((type) => !type.archived) ?? [];
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
      <fieldset>
        <legend className="text-xs font-medium text-zinc-700">Event types (none checked = every event type)</legend>
        <div className="mt-1 flex max-h-32 flex-wrap gap-x-4 gap-y-1 overflow-y-auto">
          {/* Only a loaded, empty list means "none": while loading (or after a failed load) it says so. */}
          {eventTypes.isPending ? (
            <span className="text-xs text-zinc-500">Loading event types…</span>
          ) : eventTypes.isError ? (
            <span className="text-xs text-red-700">
              Could not load the event types; the endpoint can still receive every type.
            </span>
          ) : activeTypes.length === 0 ? (
            <span className="text-xs text-zinc-500">This app has no event types yet.</span>
          ) : null}
          {activeTypes.map((type) => (
            <label key={type.id} className="flex items-center gap-1.5 font-mono text-xs">
              <input
                type="checkbox"
                checked={selectedTypes.includes(type.name)}
                onChange={(e) =>
                  setSelectedTypes((current) =>
                    e.target.checked ? [...current, type.name] : current.filter((name) => name !== type.name),
                  )
                }
              />
              {type.name}
            </label>
          ))}
        </div>
      </fieldset>
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
