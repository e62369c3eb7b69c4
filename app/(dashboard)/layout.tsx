import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';
import { getAdminSession } from '@/lib/domain/auth/get-admin-session';
import { REQUESTED_PATH_HEADER, signInPathFor } from '@/lib/http/auth/requested-path';
import { SESSION_COOKIE_NAME } from '@/lib/http/auth/session-cookie';
import { refusedPages } from '@/lib/http/permissions';

// Every dashboard page depends on the signed-in admin, so none can be prerendered.
export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const token = (await cookies()).get(SESSION_COOKIE_NAME)?.value;
  const session = await getAdminSession(token);
  if (!session) redirect(signInPathFor((await headers()).get(REQUESTED_PATH_HEADER)));
  return (
    <AppShell
      member={{ email: session.email, role: session.role, appIds: session.appIds }}
      hiddenPages={refusedPages(session)}
    >
      {children}
    </AppShell>
  );
}
