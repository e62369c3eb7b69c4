'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { appsQuery } from '@/lib/client/queries/apps';
import { Card } from '../ui/card';
import { PageHeader } from '../ui/page-header';
import { Empty, ErrorState, Loading } from '../ui/states';

/** Endpoints belong to an app: go to the only app's endpoints, or let the operator pick one. */
export function ChooseAppForEndpoints() {
  const apps = useQuery(appsQuery());
  const router = useRouter();
  const only = apps.data?.data.length === 1 ? apps.data.data[0] : undefined;
  useEffect(() => {
    if (only) router.replace(`/apps/${encodeURIComponent(only.id)}/endpoints`);
  }, [only, router]);
  return (
    <div>
      <PageHeader title="Endpoints" subtitle="Choose an app" />
      <Card>
        {apps.isPending || only ? (
          <Loading label="Loading apps…" />
        ) : apps.isError ? (
          <ErrorState error={apps.error} retry={() => void apps.refetch()} />
        ) : apps.data.data.length === 0 ? (
          <Empty title="No apps yet">
            <Link className="underline" href="/apps">
              Create an app
            </Link>{' '}
            to add endpoints.
          </Empty>
        ) : (
          <ul className="divide-y divide-zinc-100">
            {apps.data.data.map((app) => (
              <li key={app.id}>
                <Link
                  className="block px-4 py-2.5 text-sm hover:bg-zinc-50"
                  href={`/apps/${encodeURIComponent(app.id)}/endpoints`}
                >
                  <span className="font-medium">{app.name}</span>{' '}
                  <span className="font-mono text-xs text-zinc-400">{app.id}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
