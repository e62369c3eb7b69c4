'use client';
import { Select } from '../ui/field';

/** Picks one of an app's event types by name, or all of them (the empty value). */
export function EventTypeSelect({
  eventTypes,
  value,
  onChange,
  className,
}: {
  eventTypes: readonly { id: string; name: string }[] | undefined;
  value: string | undefined;
  onChange: (eventType: string) => void;
  className?: string;
}) {
  return (
    <Select
      aria-label="Event type"
      className={className}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">All event types</option>
      {/* Filtered by a name not among these (beyond the first 250, or gone since the link was made):
          without an option of its own, the select read "All event types" while the list was filtered. */}
      {value && eventTypes && !eventTypes.some((eventType) => eventType.name === value) ? (
        <option value={value}>{value}</option>
      ) : null}
      {eventTypes?.map((eventType) => (
        <option key={eventType.id} value={eventType.name}>
          {eventType.name}
        </option>
      ))}
    </Select>
  );
}
