'use client';
import { useQuery } from '@tanstack/react-query';
import { endpointQuery } from '@/lib/client/queries/endpoints';
import { Select } from '../ui/field';

/**
 * Picks one of an app's endpoints by URL, or all of them (the empty value). `endpoints` is a first page
 * (endpointsQuery: 250); an endpoint chosen elsewhere (its page links to its deliveries) may be beyond
 * it, and is then named by its own read when `appId` is given, else by its id: without an option of
 * its own, the select read "All endpoints" while the list was filtered by that endpoint.
 */
export function EndpointSelect({
  appId,
  endpoints,
  value,
  onChange,
  ariaLabel,
}: {
  appId?: string;
  endpoints: readonly { id: string; url: string }[] | undefined;
  value: string | undefined;
  onChange: (endpointId: string) => void;
  ariaLabel?: string;
}) {
  const unlisted = Boolean(value) && endpoints !== undefined && !endpoints.some((endpoint) => endpoint.id === value);
  const chosen = useQuery({ ...endpointQuery(appId ?? '', value ?? ''), enabled: unlisted && Boolean(appId) });
  return (
    <Select aria-label={ariaLabel} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
      <option value="">All endpoints</option>
      {unlisted ? <option value={value}>{chosen.data?.url ?? value}</option> : null}
      {endpoints?.map((endpoint) => (
        <option key={endpoint.id} value={endpoint.id}>
          {endpoint.url}
        </option>
      ))}
    </Select>
  );
}
