'use client';
import { useQuery } from '@tanstack/react-query';
import { endpointsQuery } from '@/lib/client/queries/endpoints';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import type { TimeRange } from '@/lib/client/queries/time-range';
import { DELIVERY_STATE_INFO, DELIVERY_STATES } from '@/lib/domain/deliveries/delivery-states';
import { AppSelect } from '../filters/app-select';
import { FilterPanel } from '../filters/filter-panel';
import { SavedFilters } from '../filters/saved-filters';
import { TextFilter } from '../filters/text-filter';
import { TimeRangePicker } from '../filters/time-range-picker';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Select } from '../ui/field';

/** The explorer's filters, by their names in the URL. */
export const DELIVERY_FILTER_NAMES = [
  'appId',
  'endpointId',
  'eventType',
  'state',
  'errorClass',
  'statusCode',
  'minAttempts',
  'messageId',
  'idempotencyKey',
  'range',
  'id',
] as const;

export type DeliveryFilterParams = Record<(typeof DELIVERY_FILTER_NAMES)[number], string | undefined>;

/** The filters set other than the app: what "Clear filters" clears and the folded panel counts. */
export function activeFilterNames(params: DeliveryFilterParams) {
  return DELIVERY_FILTER_NAMES.filter((name) => name !== 'appId' && params[name]);
}

/** The explorer's filter fields, as the URL holds them; a change goes through `setFilter`. */
export function DeliveryFilters({
  params,
  range,
  setFilter,
}: {
  params: DeliveryFilterParams;
  /** The time range, when the URL's is a valid one. */
  range: TimeRange | undefined;
  setFilter: (changes: Partial<DeliveryFilterParams>) => void;
}) {
  const endpoints = useQuery(endpointsQuery(params.appId ?? ''));
  const eventTypes = useQuery(eventTypesQuery(params.appId ?? ''));
  const active = activeFilterNames(params);
  return (
    <FilterPanel active={active.length}>
      <Card className="mb-3 p-3">
        {/* Four columns at most: any more and the selects cut off the values they show. */}
        <div className="grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
          <Field label="App">
            <AppSelect
              className="w-full"
              value={params.appId}
              onChange={(appId) => setFilter({ appId, endpointId: undefined, eventType: undefined })}
            />
          </Field>
          <Field label="Endpoint">
            <Select
              aria-label="Endpoint"
              value={params.endpointId ?? ''}
              onChange={(e) => setFilter({ endpointId: e.target.value })}
            >
              <option value="">All endpoints</option>
              {endpoints.data?.data.map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpoint.url}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Event type">
            <Select
              aria-label="Event type"
              value={params.eventType ?? ''}
              onChange={(e) => setFilter({ eventType: e.target.value })}
            >
              <option value="">All event types</option>
              {eventTypes.data?.data.map((eventType) => (
                <option key={eventType.id} value={eventType.name}>
                  {eventType.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="State">
            <Select
              aria-label="State"
              value={params.state ?? ''}
              onChange={(e) => setFilter({ state: e.target.value })}
            >
              <option value="">All states</option>
              <option value="failed">failed (retrying or dead)</option>
              {DELIVERY_STATES.map((state) => (
                <option key={state} value={state} title={DELIVERY_STATE_INFO[state].description}>
                  {state}
                </option>
              ))}
              {/* An old link's `pending` still filters; the list shows it under its current meaning. */}
              {params.state === 'pending' ? <option value="pending">pending (waiting or retrying)</option> : null}
            </Select>
          </Field>
          <Field label="Error class">
            <TextFilter
              label="Error class"
              placeholder="e.g. timeout"
              value={params.errorClass}
              onCommit={(errorClass) => setFilter({ errorClass })}
            />
          </Field>
          <Field label="Status code">
            <TextFilter
              label="Status code"
              placeholder="e.g. 503"
              inputMode="numeric"
              value={params.statusCode}
              onCommit={(statusCode) => setFilter({ statusCode })}
            />
          </Field>
          <Field label="Min. attempts">
            <TextFilter
              label="Min. attempts"
              placeholder="e.g. 3"
              inputMode="numeric"
              value={params.minAttempts}
              onCommit={(minAttempts) => setFilter({ minAttempts })}
            />
          </Field>
          <Field label="Message id / webhook-id">
            <TextFilter
              label="Message id"
              placeholder="msg_…"
              value={params.messageId}
              onCommit={(messageId) => setFilter({ messageId })}
            />
          </Field>
          <Field label="Idempotency key">
            <TextFilter
              label="Idempotency key"
              value={params.idempotencyKey}
              onCommit={(idempotencyKey) => setFilter({ idempotencyKey })}
            />
          </Field>
          <Field label="Delivery id">
            <TextFilter
              label="Delivery id"
              placeholder="dlv_…"
              value={params.id}
              onCommit={(id) => setFilter({ id })}
            />
          </Field>
        </div>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
          <TimeRangePicker allowAll value={range} onChange={(next) => setFilter({ range: next })} />
          <SavedFilters page="deliveries" pathname="/deliveries" />
          <Button
            variant="ghost"
            disabled={active.length === 0}
            onClick={() =>
              setFilter(
                Object.fromEntries(DELIVERY_FILTER_NAMES.filter((n) => n !== 'appId').map((n) => [n, undefined])),
              )
            }
          >
            Clear filters
          </Button>
        </div>
      </Card>
    </FilterPanel>
  );
}
