'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { CSSProperties, ReactNode } from 'react';
import { formatTime } from '../format';
import { useCustomer } from '../shared/viewer';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { useHydrated } from '../ui/use-hydrated';

// The portal's own shell: the app's name (or the name its operator branded it with), its logo and three
// tabs, nothing of the admin dashboard (no other apps, no overview, no keys). Compact, because it
// usually lives in an iframe in someone else's page.
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

// Only a #rrggbb reaches a style attribute: the API and a database CHECK refuse anything else, and this
// holds even for a row written around both.
const HEX_COLOUR = /^#[0-9a-f]{6}$/;
const DEFAULT_ACCENT = '#18181b';

export function PortalShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const session = useCustomer();
  const { branding } = session;
  const accent = branding.accentColor && HEX_COLOUR.test(branding.accentColor) ? branding.accentColor : DEFAULT_ACCENT;
  const logo = branding.logoUrl?.startsWith('https://') ? branding.logoUrl : null;
  // The session's end in the customer's zone: the server's HTML would have it in the server's, and a
  // customer elsewhere would get a hydration error (React #418) on every portal page.
  const hydrated = useHydrated();
  return (
    <div className="min-h-screen bg-zinc-50" style={{ '--portal-accent': accent } as CSSProperties}>
      <header className="border-b border-t-4 border-b-zinc-200 border-t-(--portal-accent) bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 pt-3">
          <div className="flex min-w-0 items-center gap-3">
            {logo ? (
              // A plain <img>: the logo is on the operator's host, which next/image would have to proxy.
              <img
                src={logo}
                alt=""
                referrerPolicy="no-referrer"
                className="h-8 max-w-32 object-contain"
                data-testid="portal-logo"
              />
            ) : null}
            <div className="min-w-0">
              <div className="text-xs text-zinc-500">Webhooks</div>
              <div className="truncate text-base font-semibold text-zinc-900" data-testid="portal-app-name">
                {branding.name ?? session.appName}
              </div>
            </div>
          </div>
          <div className="flex items-center gap-2 text-xs text-zinc-500">
            {session.readOnly ? <Badge tone="neutral">Read-only</Badge> : null}
            {hydrated ? (
              <span title="Ask for a new link after this time">Session ends {formatTime(session.expiresAt)}</span>
            ) : null}
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
                  ? 'border-(--portal-accent) font-medium text-zinc-900'
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
