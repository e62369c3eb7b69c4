'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { endpointQuery, endpointsQuery } from '@/lib/client/queries/endpoints';
import { Select } from '../ui/field';
import { useFindBox } from './find-box';

/**
 * Picks one of an app's endpoints by URL, or all of them (the empty value). Its options are the first
 * 250 (endpointsQuery); with more, a find box beside it narrows them to the endpoints whose URL,
 * description or id contains what is typed. An endpoint chosen elsewhere (its page links to its
 * deliveries) and not among the options is named by its own read: without an option of its own, the
 * select read "All endpoints" while the list was filtered by that endpoint.
 */
export function EndpointSelect({
  appId,
  value,
  onChange,
  ariaLabel,
}: {
  appId: string | undefined;
  value: string | undefined;
  onChange: (endpointId: string) => void;
  ariaLabel?: string;
}) {
  const find = useFindBox('Find an endpoint');
  const endpoints = useQuery({ ...endpointsQuery(appId ?? '', find.typed), placeholderData: keepPreviousData });
  const listed = endpoints.data?.data;
  const unlisted = Boolean(value) && listed !== undefined && !listed.some((endpoint) => endpoint.id === value);
  const chosen = useQuery({ ...endpointQuery(appId ?? '', value ?? ''), enabled: unlisted && Boolean(appId) });
  return (
    <span className="inline-flex w-full items-center gap-1">
      <Select aria-label={ariaLabel} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        <option value="">All endpoints</option>
        {unlisted ? <option value={value}>{chosen.data?.url ?? value}</option> : null}
        {listed?.map((endpoint) => (
          <option key={endpoint.id} value={endpoint.id}>
            {endpoint.url}
          </option>
        ))}
      </Select>
      {find.box(Boolean(endpoints.data?.nextCursor))}
    </span>
  );
}
