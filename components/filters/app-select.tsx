'use client';
import { useQuery } from '@tanstack/react-query';
import { appsQuery } from '@/lib/client/queries/apps';
import { Select } from '../ui/field';

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
  return (
    <Select
      aria-label="App"
      className={className ?? 'w-48'}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value || undefined)}
      disabled={apps.isPending}
    >
      {allowAll ? <option value="">All apps</option> : <option value="">Choose an app…</option>}
      {apps.data?.data.map((app) => (
        <option key={app.id} value={app.id}>
          {app.name}
        </option>
      ))}
    </Select>
  );
}
