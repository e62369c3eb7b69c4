'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { ReactNode } from 'react';
import { formatTime } from '../format';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { usePortalSession } from './portal-session';

// The portal's own shell: the app's name and three tabs, nothing of the admin dashboard (no other
// apps, no overview, no keys). Compact, because it usually lives in an iframe in someone else's page.
const NAV = [
  {
    href: '/portal',
    label: 'Endpoints',
    active: (path: string) => path === '/portal' || path.startsWith('/portal/endpoints'),
  },
  {
    href: '/portal/event-types',
    label: 'Event types',
    active: (path: string) => path.startsWith('/portal/event-types'),
  },
  { href: '/portal/deliveries', label: 'Deliveries', active: (path: string) => path.startsWith('/portal/deliveries') },
];

export function PortalShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const session = usePortalSession();
  return (
    <div className="min-h-screen bg-zinc-50">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 pt-3">
          <div className="min-w-0">
            <div className="text-xs text-zinc-500">Webhooks</div>
            <div className="truncate text-base font-semibold text-zinc-900" data-testid="portal-app-name">
              {session.appName}
            </div>
          </div>
          <div className="flex items-center gap-2 text-xs text-zinc-500">
            {session.readOnly ? <Badge tone="neutral">Read-only</Badge> : null}
            <span title="Ask for a new link after this time">Session ends {formatTime(session.expiresAt)}</span>
          </div>
        </div>
        <nav aria-label="Portal" className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-2 pt-2">
          {NAV.map((item) => (
            <Link
              key={item.href}
              href={item.href}
              aria-current={item.active(pathname) ? 'page' : undefined}
              className={cn(
                'whitespace-nowrap border-b-2 px-3 py-2 text-sm',
                item.active(pathname)
                  ? 'border-zinc-900 font-medium text-zinc-900'
                  : 'border-transparent text-zinc-500 hover:text-zinc-900',
              )}
            >
              {item.label}
            </Link>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-5">{children}</main>
    </div>
  );
}
