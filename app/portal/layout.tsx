import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ViewerProvider } from '@/components/shared/viewer';
import { PortalShell } from '@/components/shell/portal-shell';
import { portalSessionOfRequest } from './portal-session-of-request';
import { portalTitle } from './portal-title';

// The customer's portal: its own shell, one app, authenticated by the portal cookie only (the admin's
// sign-in means nothing here). Every page depends on that cookie, so none can be prerendered. The pages
// are the dashboard's own components, told by the viewer that a customer is looking.
export const dynamic = 'force-dynamic';

export const generateMetadata = (): Promise<Metadata> => portalTitle();

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const session = await portalSessionOfRequest();
  if (!session) {
    return (
      <main className="mx-auto max-w-lg px-4 py-16" data-testid="portal-expired">
        <h1 className="text-lg font-semibold text-zinc-900">This portal session has ended</h1>
        <p className="mt-2 text-sm text-zinc-600">
          It expired or was revoked. Open the webhooks page of the product you came from again to get a new one.
        </p>
      </main>
    );
  }
  return (
    <ViewerProvider
      value={{
        kind: 'customer',
        appId: session.appId,
        appName: session.appName,
        readOnly: session.readOnly,
        expiresAt: session.expiresAt.toISOString(),
        branding: session.branding,
      }}
    >
      <PortalShell>{children}</PortalShell>
    </ViewerProvider>
  );
}
