'use client';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { liveEventTypePagesQuery } from '@/lib/client/queries/event-types';
import { useFindBox } from '../filters/find-box';
import { LoadMore } from '../ui/load-more';

/**
 * The event types an endpoint subscribes to, checked among the app's live ones: 100 at a time with
 * "Load more", and a filter on the name once there is more than one page (an app with thousands finds
 * one by typing). A subscribed type the list does not show (beyond the pages loaded, outside the
 * filter, or archived since) is listed first, checked: the form saves what it shows, never a
 * subscription nobody saw. None checked: every event type.
 */
export function EventTypeChecklist({
  appId,
  selected,
  onChange,
}: {
  appId: string;
  selected: string[];
  onChange: (selected: string[]) => void;
}) {
  const find = useFindBox('Filter event types');
  const name = find.typed;
  const eventTypes = useInfiniteQuery({ ...liveEventTypePagesQuery(appId, name), placeholderData: keepPreviousData });
  const listed = eventTypes.data?.pages.flatMap((page) => page.data.map((type) => type.name)) ?? [];
  const shown = new Set(listed);
  const names = [...selected.filter((typeName) => !shown.has(typeName)), ...listed];
  const toggle = (typeName: string, checked: boolean) =>
    onChange(checked ? [...selected, typeName] : selected.filter((other) => other !== typeName));
  return (
    <fieldset>
      <legend className="text-xs font-medium text-zinc-700">Event types (none checked = every event type)</legend>
      {find.box(eventTypes.hasNextPage, 'mt-1')}
      <div className="mt-1 max-h-40 overflow-y-auto" data-testid="event-type-checklist">
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {/* Only a loaded, empty list means "none": while loading (or after a failed load) it says so. */}
          {eventTypes.isPending ? (
            <span className="text-xs text-zinc-500">Loading event types…</span>
          ) : eventTypes.isError ? (
            <span className="text-xs text-red-700">
              Could not load the event types; the endpoint can still receive every type.
            </span>
          ) : listed.length > 0 ? null : name === '' ? (
            <span className="text-xs text-zinc-500">This app has no event types yet.</span>
          ) : (
            <span className="text-xs text-zinc-500">No event type&apos;s name contains “{name}”.</span>
          )}
          {names.map((typeName) => (
            <label key={typeName} className="flex items-center gap-1.5 font-mono text-xs">
              <input
                type="checkbox"
                checked={selected.includes(typeName)}
                onChange={(e) => toggle(typeName, e.target.checked)}
              />
              {typeName}
            </label>
          ))}
        </div>
        <LoadMore pages={eventTypes} testId="event-types-load-more" />
      </div>
    </fieldset>
  );
}
