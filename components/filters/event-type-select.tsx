'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { eventTypesQuery } from '@/lib/client/queries/event-types';
import { Select } from '../ui/field';
import { useFindBox } from './find-box';

/**
 * Picks one of an app's event types by name, or all of them (the empty value). Its options are the
 * first 250 (eventTypesQuery); with more, a find box beside it narrows them to the names containing
 * what is typed, so every type can be chosen.
 */
export function EventTypeSelect({
  appId,
  value,
  onChange,
  className,
}: {
  appId: string | undefined;
  value: string | undefined;
  onChange: (eventType: string) => void;
  className?: string;
}) {
  const find = useFindBox('Find an event type');
  const eventTypes = useQuery({ ...eventTypesQuery(appId ?? '', find.typed), placeholderData: keepPreviousData });
  const listed = eventTypes.data?.data;
  return (
    <span className="inline-flex w-full items-center gap-1">
      <Select
        aria-label="Event type"
        className={className}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">All event types</option>
        {/* Filtered by a name not among these (beyond the first 250, outside what is typed, or gone since
            the link was made): without an option of its own, the select read "All event types". */}
        {value && listed && !listed.some((eventType) => eventType.name === value) ? (
          <option value={value}>{value}</option>
        ) : null}
        {listed?.map((eventType) => (
          <option key={eventType.id} value={eventType.name}>
            {eventType.name}
          </option>
        ))}
      </Select>
      {find.box(Boolean(eventTypes.data?.nextCursor))}
    </span>
  );
}
