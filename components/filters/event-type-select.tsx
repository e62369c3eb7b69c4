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
      {eventTypes?.map((eventType) => (
        <option key={eventType.id} value={eventType.name}>
          {eventType.name}
        </option>
      ))}
    </Select>
  );
}
