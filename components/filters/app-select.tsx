'use client';
import { useQuery } from '@tanstack/react-query';
import { appQuery, appsQuery } from '@/lib/client/queries/apps';
import { Select } from '../ui/field';

/**
 * The app a page is filtered by. Its options are the first 250 apps (appsQuery); an app chosen
 * elsewhere (the apps page lists every one, a link carries its id) may be beyond them, and is then
 * named by its own read: without an option of its own, the select showed "All apps" while the page
 * was filtered by that app.
 */
export function AppSelect({
  value,
  onChange,
  allowAll = false,
  className,
}: {
  value: string | undefined;
  onChange: (appId: string | undefined) => void;
  allowAll?: boolean;
  className?: string;
}) {
  const apps = useQuery(appsQuery());
  const unlisted = value !== undefined && apps.isSuccess && !apps.data.data.some((app) => app.id === value);
  const chosen = useQuery({ ...appQuery(value ?? ''), enabled: unlisted });
  return (
    <Select
      aria-label="App"
      className={className ?? 'w-48'}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || undefined)}
      disabled={apps.isPending}
    >
      {allowAll ? <option value="">All apps</option> : <option value="">Choose an app…</option>}
      {unlisted ? <option value={value}>{chosen.data?.name ?? value}</option> : null}
      {apps.data?.data.map((app) => (
        <option key={app.id} value={app.id}>
          {app.name}
        </option>
      ))}
    </Select>
  );
}
