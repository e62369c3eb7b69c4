'use client';
import type { TimeRange } from '@/lib/client/queries/time-range';
import { DELIVERY_STATE_INFO, DELIVERY_STATES } from '@/lib/domain/deliveries/delivery-states';
import { AppSelect } from '../filters/app-select';
import { FilterPanel } from '../filters/filter-panel';
import { SavedFilters } from '../filters/saved-filters';
import { EndpointSelect } from '../filters/endpoint-select';
import { ErrorClassSelect } from '../filters/error-class-select';
import { EventTypeSelect } from '../filters/event-type-select';
import { TextFilterFields, type TextFilterSpec } from '../filters/text-filter-fields';
import { TimeRangePicker } from '../filters/time-range-picker';
import { PAYLOAD_SEARCH_NAMES, PayloadSearchFields } from '../filters/payload-search-fields';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Field, Select } from '../ui/field';
import { useViewer } from '../shared/viewer';

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
  ...PAYLOAD_SEARCH_NAMES,
] as const;

type DeliveryFilterName = (typeof DELIVERY_FILTER_NAMES)[number];

export type DeliveryFilterParams = Record<DeliveryFilterName, string | undefined>;

/** The explorer's free-text filters, in the order the panel shows them. */
const DELIVERY_TEXT_FILTERS: readonly TextFilterSpec<DeliveryFilterName>[] = [
  { name: 'statusCode', field: 'Status code', label: 'Status code', placeholder: 'e.g. 503', numeric: true },
  { name: 'minAttempts', field: 'Min. attempts', label: 'Min. attempts', placeholder: 'e.g. 3', numeric: true },
  { name: 'messageId', field: 'Message id / webhook-id', label: 'Message id', placeholder: 'msg_…' },
  { name: 'idempotencyKey', field: 'Idempotency key', label: 'Idempotency key' },
  { name: 'id', field: 'Delivery id', label: 'Delivery id', placeholder: 'dlv_…' },
];

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
  // The customer portal has one app, its session's: no app to choose.
  const operator = useViewer().kind === 'operator';
  const active = activeFilterNames(params);
  return (
    <FilterPanel active={active.length}>
      <Card className="mb-3 p-3">
        {/* Four columns at most: any more and the selects cut off the values they show. */}
        <div className="grid grid-cols-1 gap-x-3 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
          {operator ? (
            <Field label="App">
              <AppSelect
                className="w-full"
                value={params.appId}
                onChange={(appId) => setFilter({ appId, endpointId: undefined, eventType: undefined })}
              />
            </Field>
          ) : null}
          <Field label="Endpoint">
            <EndpointSelect
              ariaLabel="Endpoint"
              appId={params.appId}
              value={params.endpointId}
              onChange={(endpointId) => setFilter({ endpointId })}
            />
          </Field>
          <Field label="Event type">
            <EventTypeSelect
              appId={params.appId}
              value={params.eventType}
              onChange={(eventType) => setFilter({ eventType })}
            />
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
          <Field label="Error class (latest attempt)">
            <ErrorClassSelect value={params.errorClass} onChange={(errorClass) => setFilter({ errorClass })} />
          </Field>
          <TextFilterFields specs={DELIVERY_TEXT_FILTERS} values={params} onCommit={setFilter} />
          {/* A delivery matches by its message's payload. */}
          <PayloadSearchFields values={params} onCommit={setFilter} />
        </div>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
          <TimeRangePicker allowAll value={range} onChange={(next) => setFilter({ range: next })} />
          {operator ? (
            <SavedFilters page="deliveries" pathname="/deliveries" />
          ) : (
            <SavedFilters page="portal-deliveries" pathname="/portal/deliveries" />
          )}
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
