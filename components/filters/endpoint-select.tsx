'use client';
import { Select } from '../ui/field';

/** Picks one of an app's endpoints by URL, or all of them (the empty value). */
export function EndpointSelect({
  endpoints,
  value,
  onChange,
  ariaLabel,
}: {
  endpoints: readonly { id: string; url: string }[] | undefined;
  value: string | undefined;
  onChange: (endpointId: string) => void;
  ariaLabel?: string;
}) {
  return (
    <Select aria-label={ariaLabel} value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
      <option value="">All endpoints</option>
      {endpoints?.map((endpoint) => (
        <option key={endpoint.id} value={endpoint.id}>
          {endpoint.url}
        </option>
      ))}
    </Select>
  );
}
