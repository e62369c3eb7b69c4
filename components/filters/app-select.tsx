'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { appQuery, appsQuery } from '@/lib/client/queries/apps';
import { Select } from '../ui/field';
import { useFindBox } from './find-box';

/**
 * An app to filter a page by, or to hold a member or an API key to. Its options are the first 250 apps
 * (appsQuery); with more than that (an app per customer), a search box beside it narrows them to the
 * names and ids containing what is typed, so every app can be chosen. An app chosen elsewhere (a link
 * carries its id) and not among the options is named by its own read: without an option of its own,
 * the select showed "All apps" while the page was filtered by that app.
 */
export function AppSelect({
  value,
  onChange,
  allowAll = false,
  allLabel = 'All apps',
  label = 'App',
  disabled = false,
  className,
}: {
  value: string | undefined;
  onChange: (appId: string | undefined) => void;
  allowAll?: boolean;
  /** The option for no app, when allowAll. */
  allLabel?: string;
  /** The select's accessible name. */
  label?: string;
  disabled?: boolean;
  className?: string;
}) {
  const find = useFindBox('Find an app');
  const apps = useQuery({ ...appsQuery(find.typed), placeholderData: keepPreviousData });
  const unlisted = value !== undefined && apps.isSuccess && !apps.data.data.some((app) => app.id === value);
  const chosen = useQuery({ ...appQuery(value ?? ''), enabled: unlisted });
  return (
    <span className="inline-flex items-center gap-1">
      <Select
        aria-label={label}
        className={className ?? 'w-48'}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
        disabled={disabled || apps.isPending}
      >
        {allowAll ? <option value="">{allLabel}</option> : <option value="">Choose an app…</option>}
        {unlisted ? <option value={value}>{chosen.data?.name ?? value}</option> : null}
        {apps.data?.data.map((app) => (
          <option key={app.id} value={app.id}>
            {app.name}
          </option>
        ))}
      </Select>
      {find.box(Boolean(apps.data?.nextCursor))}
    </span>
  );
}
