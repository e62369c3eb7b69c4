'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { appQuery } from '@/lib/client/queries/apps';
import { cn } from '../ui/cn';

export function AppTabs({ appId }: { appId: string }) {
  const pathname = usePathname();
  const app = useQuery(appQuery(appId));
  const base = `/apps/${encodeURIComponent(appId)}`;
  const tabs = [
    { href: `${base}/endpoints`, label: 'Endpoints', active: pathname.startsWith(`${base}/endpoints`) },
    { href: `${base}/event-types`, label: 'Event types', active: pathname.startsWith(`${base}/event-types`) },
    {
      href: `/messages?appId=${encodeURIComponent(appId)}`,
      label: 'Messages',
      active: pathname.startsWith(`${base}/messages`),
    },
    {
      href: `/deliveries?appId=${encodeURIComponent(appId)}`,
      label: 'Deliveries',
      active: pathname.startsWith(`${base}/deliveries`),
    },
    { href: `${base}/jobs`, label: 'Jobs', active: pathname.startsWith(`${base}/jobs`) },
    { href: `/overview?appId=${encodeURIComponent(appId)}`, label: 'Stats', active: false },
    { href: `${base}/settings`, label: 'Settings', active: pathname === `${base}/settings` },
  ];
  return (
    <div className="mb-4 border-b border-zinc-200">
      <div className="mb-1 flex flex-wrap items-baseline gap-x-2 text-xs text-zinc-500">
        <Link href="/apps" className="hover:underline">
          Apps
        </Link>
        <span>/</span>
        <span className="font-medium text-zinc-800">{app.data?.name ?? appId}</span>
        <span className="break-all font-mono text-zinc-400">{appId}</span>
      </div>
      <nav aria-label="App" className="-mb-px flex gap-1 overflow-x-auto">
        {tabs.map((tab) => (
          <Link
            key={tab.label}
            href={tab.href}
            aria-current={tab.active ? 'page' : undefined}
            className={cn(
              'whitespace-nowrap border-b-2 px-3 py-2 text-sm',
              tab.active
                ? 'border-zinc-900 font-medium text-zinc-900'
                : 'border-transparent text-zinc-500 hover:text-zinc-800',
            )}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
