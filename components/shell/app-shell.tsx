'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { apiFetch } from '@/lib/client/api-client';
import { MemberProvider, type SignedInMember } from '../auth/member-context';
import { OpenIssuesCount } from '../issues/open-issues-count';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { InlineError } from '../ui/states';

const NAV = [
  { href: '/overview', label: 'Overview' },
  { href: '/issues', label: 'Issues' },
  { href: '/deliveries', label: 'Deliveries' },
  { href: '/messages', label: 'Messages' },
  { href: '/endpoints', label: 'Endpoints' },
  { href: '/apps', label: 'Apps' },
  { href: '/api-keys', label: 'API keys' },
  { href: '/operations', label: 'Operations' },
  { href: '/audit', label: 'Audit log' },
  { href: '/members', label: 'Members' },
  { href: '/account', label: 'Account' },
] as const;

// The mark from public/logo.svg; the name beside it is the link's text, so the image is decorative.
function Logo() {
  return <img src="/logo.svg" alt="" width={20} height={20} className="h-5 w-5" data-testid="logo" />;
}

function isActive(pathname: string, href: string): boolean {
  if (href === '/endpoints') return pathname === href || /^\/apps\/[^/]+\/endpoints/.test(pathname);
  if (href === '/apps') return pathname === href || /^\/apps\/[^/]+(\/event-types|\/?$)/.test(pathname);
  if (href === '/deliveries') return pathname === href || /^\/apps\/[^/]+\/deliveries/.test(pathname);
  if (href === '/messages') return pathname === href || /^\/apps\/[^/]+\/messages/.test(pathname);
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The dashboard's frame. `hiddenPages`: the pages this member may not open, left out of the menu; the
 * server decides them from lib/http/permissions.ts (refusedPages), as each of those pages refuses itself.
 */
export function AppShell({
  member,
  hiddenPages,
  children,
}: {
  member: SignedInMember;
  hiddenPages: readonly string[];
  children: ReactNode;
}) {
  const email = member.email;
  const nav = NAV.filter((item) => !hiddenPages.includes(item.href));
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const [signOutError, setSignOutError] = useState<unknown>(null);
  const signOut = async () => {
    setSigningOut(true);
    setSignOutError(null);
    try {
      await apiFetch<void>('/api/auth/sign-out', { method: 'POST', body: {} });
      window.location.assign('/sign-in');
    } catch (error) {
      // The session is still alive: showing the sign-in page now would only look like a sign-out.
      setSigningOut(false);
      setSignOutError(error);
    }
  };
  return (
    <div className="min-h-screen md:flex">
      <header className="sticky top-0 z-20 flex items-center justify-between border-b border-zinc-200 bg-white px-4 py-2 md:hidden">
        <Link href="/overview" className="flex items-center gap-2 font-semibold tracking-tight">
          <Logo />
          Hookline
        </Link>
        <Button size="sm" variant="ghost" aria-expanded={menuOpen} onClick={() => setMenuOpen((open) => !open)}>
          Menu
        </Button>
      </header>
      <aside
        className={cn('border-r border-zinc-200 bg-white md:w-52 md:shrink-0', menuOpen ? 'block' : 'hidden md:block')}
      >
        <div className="md:sticky md:top-0 md:flex md:h-screen md:flex-col">
          <div className="hidden px-4 py-4 md:block">
            <Link href="/overview" className="flex items-center gap-2 text-base font-semibold tracking-tight">
              <Logo />
              Hookline
            </Link>
          </div>
          <nav aria-label="Main" className="flex flex-col gap-0.5 px-2 py-2 md:flex-1">
            {nav.map((item) => (
              <Link
                key={item.href}
                href={item.href}
                onClick={() => setMenuOpen(false)}
                aria-current={isActive(pathname, item.href) ? 'page' : undefined}
                className={cn(
                  'rounded-md px-3 py-1.5 text-sm',
                  isActive(pathname, item.href) ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-100',
                )}
              >
                {item.label}
                {item.href === '/issues' ? <OpenIssuesCount /> : null}
              </Link>
            ))}
          </nav>
          <div className="border-t border-zinc-100 px-4 py-3 text-xs text-zinc-500">
            <div className="truncate" title={email}>
              {email}
            </div>
            <div data-testid="member-role">{member.role}</div>
            <Button
              size="sm"
              variant="ghost"
              className="-ml-2 mt-1"
              disabled={signingOut}
              onClick={() => void signOut()}
            >
              Sign out
            </Button>
            <InlineError error={signOutError} />
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-5 md:px-6">
        <MemberProvider member={member}>{children}</MemberProvider>
      </main>
    </div>
  );
}
